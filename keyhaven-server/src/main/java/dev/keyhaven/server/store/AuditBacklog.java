package dev.keyhaven.server.store;

import java.util.ArrayList;
import java.util.List;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The audit changes a write transaction has made and not yet appended to their organizations' chains. The chain is
 * appended to last, just before the commit ({@link JdbcAuditLog#appendPending}), so that the organization's row lock,
 * which linking to the chain's head needs, is held from then until the commit instead of for the whole transaction,
 * and so that a transaction (or a batch of grouped ones) reads and moves each head once, however many changes it made.
 */
final class AuditBacklog {
    private record Pending(String organizationId, NotedChange change) {}

    /** What was pending at one point, to go back to when the work done since is rolled back. */
    record Mark(List<Pending> pending) {}

    private static final Mark NOTHING = new Mark(List.of());

    private final List<Pending> pending = new ArrayList<>();

    void add(String organizationId, List<NotedChange> changes) {
        for (NotedChange change : changes) {
            pending.add(new Pending(organizationId, change));
        }
    }

    boolean isEmpty() {
        return pending.isEmpty();
    }

    /**
     * What is pending now. A savepoint takes one, and restores it ({@link #reset}) when it rolls back: that also brings
     * back changes appended inside it, since rolling back removed their entries from the chain too.
     */
    Mark mark() {
        return pending.isEmpty() ? NOTHING : new Mark(List.copyOf(pending));
    }

    void reset(Mark mark) {
        pending.clear();
        pending.addAll(mark.pending());
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
