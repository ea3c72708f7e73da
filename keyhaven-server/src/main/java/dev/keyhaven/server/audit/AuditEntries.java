package dev.keyhaven.server.audit;

import dev.keyhaven.client.AuditChain;
import dev.keyhaven.client.AuditLogVerifier.BrokenChainException;
import dev.keyhaven.client.AuditLogVerifier.Entry;
import dev.keyhaven.server.audit.AuditLogRepository.StoredEntry;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Stored entries with their content, as the chain's readers need them. An entry whose row is final keeps only the
 * hash of its content ({@link AuditChange#rowIsFinal}): its content is that row, which must still hash to it. A row
 * that no longer does was edited behind the log's back, and one that is gone was deleted.
 */
public final class AuditEntries {
    private AuditEntries() {}

    /**
     * Every entry with its content, for {@link dev.keyhaven.client.AuditLogVerifier}.
     *
     * @throws BrokenChainException naming the first entry whose row is gone or no longer hashes to the hash the entry
     *         keeps (an entry whose own hash is not made from the hash it keeps is left to the chain's check and to
     *         {@link #requireLinked})
     */
    public static List<Entry> withContent(List<StoredEntry> stored) {
        List<Entry> entries = new ArrayList<>(stored.size());
        for (StoredEntry e : stored) {
            entries.add(new Entry(
                    e.organizationId(),
                    e.seq(),
                    e.kind(),
                    e.activityId(),
                    e.recordId(),
                    content(e),
                    e.prevHash(),
                    e.hash()));
        }
        return entries;
    }

    /**
     * Checks, after the chain's check, that every entry that keeps only a hash was linked with that hash. The chain's
     * check alone would pass an entry whose kept hash was altered while its row still hashes to the original.
     *
     * @throws BrokenChainException naming the first such entry
     */
    public static void requireLinked(List<StoredEntry> stored) {
        for (StoredEntry e : stored) {
            if (e.content().isEmpty() && !linked(e)) {
                throw new BrokenChainException("organization " + e.organizationId() + " entry " + e.seq()
                        + ": its hash does not match its fields (the entry was altered)");
            }
        }
    }

    /** The content a reader is given: the entry's own, or its row as it is now (empty when the row is gone). */
    static Optional<String> shown(StoredEntry e) {
        return e.content().or(e::row);
    }

    private static String content(StoredEntry e) {
        if (e.content().isPresent()) {
            return e.content().get();
        }
        if (!linked(e)) {
            // The entry itself was altered: left to the chain's check, which names it in chain order, and to
            // requireLinked after it.
            return e.row().orElse("");
        }
        String where = "organization " + e.organizationId() + " entry " + e.seq() + ": "
                + (e.kind().equals(AuditKind.VOTE.name()) ? "vote " : "activity ") + e.recordId();
        String row = e.row().orElseThrow(() -> new BrokenChainException(where + " is missing (the row was deleted)"));
        if (!AuditChain.sha256Hex(row).equals(e.contentHash())) {
            throw new BrokenChainException(where + " does not match the hash its entry keeps (the row was edited)");
        }
        return row;
    }

    /** Whether the entry's hash is the hash of its fields with the content hash it keeps. */
    private static boolean linked(StoredEntry e) {
        return AuditChain.linkHash(
                        e.organizationId(),
                        e.seq(),
                        e.kind(),
                        e.activityId(),
                        e.recordId(),
                        e.contentHash(),
                        e.prevHash())
                .equals(e.hash());
    }
}
