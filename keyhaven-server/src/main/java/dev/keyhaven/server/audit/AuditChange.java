package dev.keyhaven.server.audit;

import java.util.SortedMap;

/**
 * One change to an activity's record, to append to its organization's chain: {@code recordId} is the row that changed
 * (the activity, or the vote), {@code columns} the changed columns with their values as stored (text, numbers,
 * booleans or null), in column-name order so that their JSON is canonical.
 *
 * <p>{@code rowIsFinal}: the change wrote the whole row and nothing changes it afterwards (a vote; an activity
 * recorded in a final status). Its entry then keeps only the SHA-256 of the content, and readers take the content
 * from the row, which must still hash to it.
 */
public record AuditChange(
        AuditKind kind, String activityId, String recordId, SortedMap<String, Object> columns, boolean rowIsFinal) {

    /** A change after which the record may still change: its entry keeps its content. */
    public AuditChange(AuditKind kind, String activityId, String recordId, SortedMap<String, Object> columns) {
        this(kind, activityId, recordId, columns, false);
    }
}
