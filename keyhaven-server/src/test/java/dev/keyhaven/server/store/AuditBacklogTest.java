package dev.keyhaven.server.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.keyhaven.server.audit.AuditLogRepository.Head;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * A savepoint's mark brings back exactly what was pending at it: changes noted since are dropped, changes drained
 * (appended) since come back, and the head of an organization deleted since is forgotten, since the rollback
 * restored its row.
 */
class AuditBacklogTest {
    private static final Head DELETED = new Head("org-a", 7, Optional.of("ab".repeat(32)));

    private static NotedChange change(String activityId) {
        return new NotedChange("VOTE", activityId, activityId, Optional.empty(), "00".repeat(32));
    }

    @Test
    void rollingBackToAMarkForgetsAnOrganizationDeletedAfterIt() {
        AuditBacklog backlog = new AuditBacklog();
        backlog.add("org-a", List.of(change("before")));
        AuditBacklog.Mark savepoint = backlog.mark();

        backlog.add("org-a", List.of(change("inside")));
        assertThat(backlog.drain("org-a")).extracting(NotedChange::activityId).containsExactly("before", "inside");
        backlog.headWithoutRow(DELETED);
        assertThat(backlog.headWithoutRow("org-a")).contains(DELETED);

        backlog.reset(savepoint);
        assertThat(backlog.headWithoutRow("org-a")).isEmpty();
        assertThat(backlog.drain().get("org-a"))
                .extracting(NotedChange::activityId)
                .containsExactly("before");
    }

    @Test
    void aHeadKeptBeforeTheMarkSurvivesARollbackToIt() {
        AuditBacklog backlog = new AuditBacklog();
        backlog.headWithoutRow(DELETED);
        AuditBacklog.Mark savepoint = backlog.mark();
        Head moved = new Head("org-a", 8, Optional.of("cd".repeat(32)));
        backlog.headWithoutRow(moved);

        backlog.reset(savepoint);
        assertThat(backlog.headWithoutRow("org-a")).contains(DELETED);
        assertThat(backlog.headWithoutRow("org-b")).isEmpty();
    }
}
