package dev.keyhaven.server.audit;

import dev.keyhaven.client.AuditLogVerifier;
import dev.keyhaven.client.AuditLogVerifier.BrokenChainException;
import dev.keyhaven.client.AuditLogVerifier.Entry;
import dev.keyhaven.client.AuditLogVerifier.SignedHead;
import dev.keyhaven.crypto.VerifyingKey;
import dev.keyhaven.server.audit.AuditLogRepository.Head;
import dev.keyhaven.server.audit.AuditLogRepository.Row;
import dev.keyhaven.server.audit.AuditLogRepository.StoredEntry;
import dev.keyhaven.server.tx.Transactor;
import dev.keyhaven.server.tx.Tx;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.ObjectMapper;

/**
 * What {@code audit verify} checks, organization by organization, in one read transaction: each chain with
 * {@link AuditLogVerifier} (order, links, hashes), that it ends at the head its organization's row records, every
 * signed head against the identity key, and that every activity and vote row says what its last entry says (so a
 * row edited, deleted or inserted behind the log's back is found too). The rows of entries that keep only their
 * content's hash are checked first, as their content is read ({@link AuditEntries}).
 */
public final class AuditVerification {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final TypeReference<TreeMap<String, Object>> COLUMNS = new TypeReference<>() {};

    /** What a clean verification checked. */
    public record Checked(int organizations, int entries, int signedHeads) {}

    private final Transactor transactor;
    private final AuditLogRepository log;

    public AuditVerification(Transactor transactor, AuditLogRepository log) {
        this.transactor = transactor;
        this.log = log;
    }

    /**
     * Verifies every organization's chain against {@code identityPublicKey} (hex).
     *
     * @throws BrokenChainException naming the first entry, signed head or row found wrong
     */
    public Checked verify(String identityPublicKey) {
        VerifyingKey identity = AuditLogVerifier.identityKey(identityPublicKey);
        return transactor.read(tx -> {
            Set<String> baseline = log.baseline(tx);
            int entries = 0;
            int heads = 0;
            List<String> organizations = log.organizations(tx);
            for (String organizationId : organizations) {
                List<StoredEntry> stored = log.entries(tx, organizationId);
                List<Entry> chain = AuditEntries.withContent(stored);
                AuditLogVerifier.verifyChain(chain);
                AuditEntries.requireLinked(stored);
                checkHead(organizationId, chain, log.head(tx, organizationId));
                List<SignedHead> signed = log.signedHeads(tx, organizationId);
                for (SignedHead head : signed) {
                    AuditLogVerifier.verifyHead(head, chain, identity);
                }
                checkRows(tx, organizationId, chain, baseline);
                entries += chain.size();
                heads += signed.size();
            }
            return new Checked(organizations.size(), entries, heads);
        });
    }

    /** The chain must end exactly at the head the organization's row records (absent: the organization is gone). */
    private static void checkHead(String organizationId, List<Entry> chain, Optional<Head> recorded) {
        if (recorded.isEmpty()) {
            return;
        }
        long last = chain.isEmpty() ? 0 : chain.getLast().seq();
        long head = recorded.get().seq();
        String where = "organization " + organizationId;
        if (last > head) {
            throw new BrokenChainException(where + " entry " + (head + 1) + ": past the chain head (entry " + head
                    + ") its organization records (an entry was inserted)");
        }
        if (last < head) {
            throw new BrokenChainException(where + " entry " + (last + 1)
                    + ": missing, the organization's head is entry " + head + " (entries were deleted)");
        }
        if (head > 0
                && !recorded.get().hash().equals(Optional.of(chain.getLast().hash()))) {
            throw new BrokenChainException(
                    where + " entry " + head + ": not the head its organization records (the chain was rewritten)");
        }
    }

    /** Each row must be what its entries, applied in order, make it; each row must have entries. */
    private void checkRows(Tx tx, String organizationId, List<Entry> chain, Set<String> baseline) {
        Map<String, SortedMap<String, Object>> expected = new LinkedHashMap<>();
        Map<String, Long> lastEntry = new HashMap<>();
        for (Entry entry : chain) {
            SortedMap<String, Object> changed = JSON.readValue(entry.content(), COLUMNS);
            String record = entry.kind() + ":" + entry.recordId();
            if (!entry.kind().equals(AuditKind.VOTE.name())) {
                record = "activity:" + entry.recordId();
            }
            if (entry.kind().equals(AuditKind.ACTIVITY_CREATED.name())
                    || entry.kind().equals(AuditKind.VOTE.name())) {
                expected.put(record, new TreeMap<>(changed));
            } else {
                expected.computeIfAbsent(record, r -> new TreeMap<>()).putAll(changed);
            }
            lastEntry.put(record, entry.seq());
        }
        String where = "organization " + organizationId;
        Map<String, Row> activities = log.activityRows(tx, organizationId);
        Map<String, Row> votes = log.voteRows(tx, organizationId);
        compare(where, "activity", "activity:", activities, expected, lastEntry, baseline);
        compare(where, "vote", AuditKind.VOTE.name() + ":", votes, expected, lastEntry, baseline);
    }

    private static void compare(
            String where,
            String what,
            String prefix,
            Map<String, Row> rows,
            Map<String, SortedMap<String, Object>> expected,
            Map<String, Long> lastEntry,
            Set<String> baseline) {
        for (Map.Entry<String, Row> row : rows.entrySet()) {
            if (baseline.contains(row.getValue().activityId())) {
                continue;
            }
            String record = prefix + row.getKey();
            SortedMap<String, Object> logged = expected.get(record);
            if (logged == null) {
                throw new BrokenChainException(
                        where + " " + what + " " + row.getKey() + ": no entry records it (the row was inserted)");
            }
            if (!JSON.writeValueAsString(logged).equals(row.getValue().columns())) {
                throw new BrokenChainException(where + " entry " + lastEntry.get(record) + ": " + what + " "
                        + row.getKey() + " does not match it, its last entry (the row was edited)");
            }
        }
        for (Map.Entry<String, SortedMap<String, Object>> logged : expected.entrySet()) {
            String record = logged.getKey();
            if (record.startsWith(prefix) && !rows.containsKey(record.substring(prefix.length()))) {
                throw new BrokenChainException(where + " entry " + lastEntry.get(record) + ": " + what + " "
                        + record.substring(prefix.length()) + " is missing (the row was deleted)");
            }
        }
    }
}
