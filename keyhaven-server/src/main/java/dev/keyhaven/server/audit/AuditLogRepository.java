package dev.keyhaven.server.audit;

import dev.keyhaven.client.AuditLogVerifier.SignedHead;
import dev.keyhaven.server.tx.Tx;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/** Storage of the organizations' hash chains and their signed heads; implemented by the store. */
public interface AuditLogRepository {

    /** An organization's chain head as its row records it: the last entry's number and hash (0 and empty first). */
    record Head(String organizationId, long seq, Optional<String> hash) {}

    /** The organizations whose heads have moved past their last signed head (or were never signed). */
    List<Head> unsignedHeads(Tx tx);

    /** Stores a signed head; another server having signed the same head already is not an error. */
    void insertSignedHead(Tx tx, SignedHead head, Instant signedAt);

    /** Every organization that has entries or a head, in id order. */
    List<String> organizations(Tx tx);

    Optional<Head> head(Tx tx, String organizationId);

    /**
     * An entry as stored. {@code content} is empty for an entry whose row is final ({@link AuditChange#rowIsFinal}),
     * which keeps only {@code contentHash}; {@code row} is then that row's canonical JSON as it is now (empty when the
     * row is gone), which {@link AuditEntries} checks against the hash. {@code contentHash} is given for every entry.
     */
    record StoredEntry(
            String organizationId,
            long seq,
            String kind,
            String activityId,
            String recordId,
            Optional<String> content,
            String contentHash,
            Optional<String> row,
            String prevHash,
            String hash) {}

    /** The organization's entries in {@code seq} order. */
    List<StoredEntry> entries(Tx tx, String organizationId);

    /** Up to {@code limit} of the organization's entries after {@code afterSeq}, in order, of one activity or all. */
    List<StoredEntry> entriesAfter(Tx tx, String organizationId, Optional<String> activityId, long afterSeq, int limit);

    List<SignedHead> signedHeads(Tx tx, String organizationId);

    /** The organization's newest signed head. */
    Optional<SignedHead> latestSignedHead(Tx tx, String organizationId);

    /** A stored row as the log describes it: its activity and the canonical JSON of its columns. */
    record Row(String activityId, String columns) {}

    /** The organization's activity rows, by activity id (columns as {@link AuditKind#ACTIVITY_CREATED} has them). */
    Map<String, Row> activityRows(Tx tx, String organizationId);

    /** The organization's vote rows, by vote id (columns as {@link AuditKind#VOTE} has them). */
    Map<String, Row> voteRows(Tx tx, String organizationId);

    /** Activities recorded before the log existed, which have no entries. */
    Set<String> baseline(Tx tx);
}
