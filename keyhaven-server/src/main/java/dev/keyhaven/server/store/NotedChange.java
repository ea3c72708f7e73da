package dev.keyhaven.server.store;

import dev.keyhaven.client.AuditChain;
import dev.keyhaven.server.audit.AuditChange;

/**
 * An audit change as its entry will hold it: the canonical JSON of its columns and that JSON's hash, computed when the
 * change is noted, so that appending it to the chain at the commit only links it ({@link AuditChain#linkHash}).
 */
record NotedChange(String kind, String activityId, String recordId, String content, String contentHash) {

    static NotedChange of(AuditChange change) {
        // Checked here, where the change is noted, so that appending binds it as it is (Sql.Checked).
        String content = Sql.storable(JdbcAuditLog.canonical(change.columns()));
        return new NotedChange(
                change.kind().name(), change.activityId(), change.recordId(), content, AuditChain.sha256Hex(content));
    }
}
