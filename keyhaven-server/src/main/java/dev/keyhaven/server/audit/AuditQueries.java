package dev.keyhaven.server.audit;

import dev.keyhaven.client.AuditLogVerifier.SignedHead;
import dev.keyhaven.server.api.ApiException;
import dev.keyhaven.server.api.Caller;
import dev.keyhaven.server.api.Params;
import dev.keyhaven.server.audit.AuditLogRepository.StoredEntry;
import dev.keyhaven.server.tx.Transactor;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@code get_audit_log} (a Keyhaven extension, for operators and consoles): a page of the organization's chain, so a
 * reader can follow it, check each entry's link and hash, and see how far the newest signed head reaches.
 */
public final class AuditQueries {
    static final int DEFAULT_LIMIT = 100;
    static final int MAX_LIMIT = 500;

    private final Transactor transactor;
    private final AuditLogRepository log;

    public AuditQueries(Transactor transactor, AuditLogRepository log) {
        this.transactor = transactor;
        this.log = log;
    }

    /**
     * {@code get_audit_log {organizationId, activityId?, afterSeq?, limit?}} → {@code {entries, head,
     * latestSignedHead?}}: up to {@code limit} (1–500, default 100) entries after {@code afterSeq} (default 0), in
     * order, of one activity or of all; {@code head} is the chain's last entry as the organization records it.
     */
    public Map<String, Object> getAuditLog(Caller caller, Params body) {
        Optional<String> activityId = body.optionalString("activityId");
        int afterSeq = body.optionalInt("afterSeq").orElse(0);
        if (afterSeq < 0) {
            throw ApiException.badField(body.pathOf("afterSeq"), "must not be negative");
        }
        int limit = body.optionalInt("limit").orElse(DEFAULT_LIMIT);
        if (limit < 1 || limit > MAX_LIMIT) {
            throw ApiException.badField(body.pathOf("limit"), "must be between 1 and " + MAX_LIMIT);
        }
        String organizationId = caller.organizationId();
        return transactor.read(tx -> {
            Map<String, Object> answer = new LinkedHashMap<>();
            List<StoredEntry> entries = log.entriesAfter(tx, organizationId, activityId, afterSeq, limit);
            answer.put("entries", entries.stream().map(AuditQueries::entry).toList());
            AuditLogRepository.Head head = log.head(tx, organizationId).orElseThrow();
            Map<String, Object> headView = new LinkedHashMap<>();
            headView.put("seq", head.seq());
            head.hash().ifPresent(hash -> headView.put("hash", hash));
            answer.put("head", headView);
            log.latestSignedHead(tx, organizationId)
                    .ifPresent(signed -> answer.put("latestSignedHead", signed(signed)));
            return answer;
        });
    }

    /**
     * An entry as a reader checks it: {@code contentHash} is what the entry's hash covers, and {@code content} hashes
     * to it unless its record was edited; for an entry that keeps only the hash, {@code content} is the record's row
     * as it is now, absent when the row is gone.
     */
    private static Map<String, Object> entry(StoredEntry e) {
        Map<String, Object> view = new LinkedHashMap<>();
        view.put("seq", e.seq());
        view.put("kind", e.kind());
        view.put("activityId", e.activityId());
        view.put("recordId", e.recordId());
        AuditEntries.shown(e).ifPresent(content -> view.put("content", content));
        view.put("contentHash", e.contentHash());
        view.put("prevHash", e.prevHash());
        view.put("hash", e.hash());
        return view;
    }

    private static Map<String, Object> signed(SignedHead head) {
        Map<String, Object> view = new LinkedHashMap<>();
        view.put("seq", head.seq());
        view.put("headHash", head.headHash());
        view.put("signature", head.signature());
        view.put("signedAt", head.signedAt());
        return view;
    }
}
