package dev.keyhaven.server.store;

import dev.keyhaven.server.audit.AuditLogRepository.Head;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The audit changes a write transaction has made and not yet appended to their organizations' chains. The chain is
 * appended to last, just before the commit ({@link JdbcAuditLog#appendPending}), so that the organization's row lock,
 * which linking to the chain's head needs, is held from then until the commit instead of for the whole transaction,
 * and so that a transaction (or a batch of grouped ones) reads and moves each head once, however many changes it made.
 *
 * <p>It also keeps the chain head of each organization whose row the transaction deleted: that row held the head,
 * and what the transaction records after the deletion (the deleting activity's outcome, at least) still belongs at
 * the end of that organization's chain.
 */
final class AuditBacklog {
    private record Pending(String organizationId, NotedChange change) {}

    /** What was pending at one point, to go back to when the work done since is rolled back. */
    record Mark(List<Pending> pending, Map<String, Head> deleted) {}

    private static final Mark NOTHING = new Mark(List.of(), Map.of());

    private final List<Pending> pending = new ArrayList<>();
    private final Map<String, Head> deleted = new HashMap<>();

    void add(String organizationId, List<NotedChange> changes) {
        for (NotedChange change : changes) {
            pending.add(new Pending(organizationId, change));
        }
    }

    /** The chain head of an organization whose row this transaction deletes, or moved on past its deletion. */
    void headWithoutRow(Head head) {
        deleted.put(head.organizationId(), head);
    }

    /** The head {@link #headWithoutRow} kept for an organization whose row is gone. */
    Optional<Head> headWithoutRow(String organizationId) {
        return Optional.ofNullable(deleted.get(organizationId));
    }

    boolean isEmpty() {
        return pending.isEmpty();
    }

    /**
     * What is pending now. A savepoint takes one, and restores it ({@link #reset}) when it rolls back: that also brings
     * back changes appended inside it, since rolling back removed their entries from the chain too, and forgets the
     * heads of organizations deleted inside it, whose rows the rollback restored.
     */
    Mark mark() {
        return pending.isEmpty() && deleted.isEmpty() ? NOTHING : new Mark(List.copyOf(pending), Map.copyOf(deleted));
    }

    void reset(Mark mark) {
        pending.clear();
        pending.addAll(mark.pending());
        deleted.clear();
        deleted.putAll(mark.deleted());
    }

    /** Takes every pending change, grouped by organization, organizations in id order (the order their rows lock). */
    SortedMap<String, List<NotedChange>> drain() {
        SortedMap<String, List<NotedChange>> byOrganization = new TreeMap<>();
        for (Pending p : pending) {
            byOrganization
                    .computeIfAbsent(p.organizationId(), id -> new ArrayList<>())
                    .add(p.change());
        }
        pending.clear();
        return byOrganization;
    }

    /** Takes the pending changes of one organization, in the order they were made. */
    List<NotedChange> drain(String organizationId) {
        List<NotedChange> changes = new ArrayList<>();
        pending.removeIf(p -> {
            if (!p.organizationId().equals(organizationId)) {
                return false;
            }
            changes.add(p.change());
            return true;
        });
        return changes;
    }
}
