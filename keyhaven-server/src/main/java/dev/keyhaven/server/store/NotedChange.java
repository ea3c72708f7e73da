package dev.keyhaven.server.store;

import dev.keyhaven.client.AuditChain;
import dev.keyhaven.server.audit.AuditChange;
import java.util.Optional;

/**
 * An audit change as its entry will hold it: the canonical JSON of its columns and that JSON's hash, computed when the
 * change is noted, so that appending it to the chain at the commit only links it ({@link AuditChain#linkHash}).
 * {@code stored} is the content the entry keeps: empty for a change whose row is final, whose entry keeps only
 * {@code contentHash} (the row is the content).
 */
record NotedChange(String kind, String activityId, String recordId, Optional<String> stored, String contentHash) {

    static NotedChange of(AuditChange change) {
        // Checked here, where the change is noted, so that appending binds it as it is (Sql.Checked).
        String content = Sql.storable(JdbcAuditLog.canonical(change.columns()));
        return new NotedChange(
                change.kind().name(),
                change.activityId(),
                change.recordId(),
                change.rowIsFinal() ? Optional.empty() : Optional.of(content),
                AuditChain.sha256Hex(content));
    }
}
