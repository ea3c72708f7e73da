package dev.keyhaven.server.audit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.keyhaven.client.AuditChain;
import dev.keyhaven.client.AuditLogVerifier;
import dev.keyhaven.client.AuditLogVerifier.BrokenChainException;
import dev.keyhaven.client.AuditLogVerifier.Entry;
import dev.keyhaven.server.audit.AuditLogRepository.StoredEntry;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * An entry that keeps only its content's hash gets its content from its row: the row as it is when it still hashes
 * to the entry, a named refusal when the row is gone or edited, and, once the chain's check has passed, one when the
 * hash the entry keeps was altered.
 */
class AuditEntriesTest {
    private static final String ORG = "org-1";
    private static final String ROW = "{\"id\":\"vote-1\",\"selection\":\"VOTE_SELECTION_APPROVED\"}";

    /** Entry 1 of the chain, a vote that keeps only {@code contentHash}, linked with {@code linkedHash}. */
    private static StoredEntry vote(String linkedHash, String contentHash, Optional<String> row) {
        String hash = AuditChain.linkHash(ORG, 1, "VOTE", "activity-1", "vote-1", linkedHash, AuditChain.GENESIS);
        return new StoredEntry(
                ORG, 1, "VOTE", "activity-1", "vote-1", Optional.empty(), contentHash, row, AuditChain.GENESIS, hash);
    }

    private static StoredEntry intact(Optional<String> row) {
        String contentHash = AuditChain.sha256Hex(ROW);
        return vote(contentHash, contentHash, row);
    }

    @Test
    void aRowThatStillHashesToItsEntryIsItsContentAndTheChainVerifies() {
        List<Entry> chain = AuditEntries.withContent(List.of(intact(Optional.of(ROW))));
        assertThat(chain).extracting(Entry::content).containsExactly(ROW);
        AuditLogVerifier.verifyChain(chain);
        assertThat(AuditEntries.shown(intact(Optional.of(ROW)))).contains(ROW);
    }

    @Test
    void anEditedRowIsNamedAsEdited() {
        assertThatThrownBy(() -> AuditEntries.withContent(List.of(intact(Optional.of(ROW.replace("APPROVED", "X"))))))
                .isInstanceOf(BrokenChainException.class)
                .hasMessage("organization org-1 entry 1: vote vote-1 does not match the hash its entry keeps (the row "
                        + "was edited)");
    }

    @Test
    void aMissingRowIsNamedAsDeletedAndShownWithoutContent() {
        assertThatThrownBy(() -> AuditEntries.withContent(List.of(intact(Optional.empty()))))
                .isInstanceOf(BrokenChainException.class)
                .hasMessage("organization org-1 entry 1: vote vote-1 is missing (the row was deleted)");
        assertThat(AuditEntries.shown(intact(Optional.empty()))).isEmpty();
    }

    @Test
    void anEntryWhoseKeptHashWasAlteredIsNamedAsAlteredEvenThoughItsRowMatchesItsHash() {
        // The row still hashes to what the entry's hash was made from, so the chain's check alone would pass: the
        // altered column must be reported all the same.
        StoredEntry altered = vote(AuditChain.sha256Hex(ROW), "00".repeat(32), Optional.of(ROW));
        List<Entry> chain = AuditEntries.withContent(List.of(altered));
        AuditLogVerifier.verifyChain(chain);
        assertThatThrownBy(() -> AuditEntries.requireLinked(List.of(altered)))
                .isInstanceOf(BrokenChainException.class)
                .hasMessage("organization org-1 entry 1: its hash does not match its fields (the entry was altered)");
    }

    @Test
    void anEntryThatKeepsItsContentIsReadAsStored() {
        String content = "{\"status\":\"ACTIVITY_STATUS_COMPLETED\"}";
        String hash = AuditChain.entryHash(ORG, 1, "ACTIVITY_OUTCOME", "a-1", "a-1", content, AuditChain.GENESIS);
        StoredEntry kept = new StoredEntry(
                ORG,
                1,
                "ACTIVITY_OUTCOME",
                "a-1",
                "a-1",
                Optional.of(content),
                AuditChain.sha256Hex(content),
                Optional.empty(),
                AuditChain.GENESIS,
                hash);
        assertThat(AuditEntries.withContent(List.of(kept)))
                .extracting(Entry::content)
                .containsExactly(content);
        assertThat(AuditEntries.shown(kept)).contains(content);
    }
}
