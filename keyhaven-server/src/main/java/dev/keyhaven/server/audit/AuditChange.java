package dev.keyhaven.server.audit;

import java.util.SortedMap;

/**
 * One change to an activity's record, to append to its organization's chain: {@code recordId} is the row that changed
 * (the activity, or the vote), {@code columns} the changed columns with their values as stored (text, numbers,
 * booleans or null), in column-name order so that their JSON is canonical.
 */
public record AuditChange(AuditKind kind, String activityId, String recordId, SortedMap<String, Object> columns) {}
