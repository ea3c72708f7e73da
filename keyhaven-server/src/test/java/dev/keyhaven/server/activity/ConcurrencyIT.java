package dev.keyhaven.server.activity;

import static org.assertj.core.api.Assertions.assertThat;

import dev.keyhaven.client.Activity;
import dev.keyhaven.client.KeyhavenApiException;
import dev.keyhaven.client.KeyhavenClient;
import dev.keyhaven.client.Requests.UserParams;
import dev.keyhaven.server.app.KeyhavenConfig;
import dev.keyhaven.server.testing.OnBothStores;
import dev.keyhaven.server.testing.TestServer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/** Concurrent activities in one organization: no lost effects, no deadlocks, no double execution. */
class ConcurrencyIT extends OnBothStores {
    private static final int CLIENTS = 16;

    @Override
    protected KeyhavenConfig configure(KeyhavenConfig defaults) {
        return defaults.withLimits(dev.keyhaven.server.user.UserLimits.builder()
                .usersPerOrganization(1000)
                .build());
    }

    @Test
    void concurrentCreateUsersAllCompleteAndAllUsersExist() throws Exception {
        List<Future<Activity>> results = new ArrayList<>();
        try (ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor()) {
            for (int i = 0; i < CLIENTS * 4; i++) {
                String name = "concurrent-" + i;
                results.add(executor.submit(() -> root.createUsers(List.of(new UserParams(
                        name, name + "@example.com", null, List.of(), List.of(), List.of(), List.of())))));
            }
            for (Future<Activity> result : results) {
                assertThat(result.get().status()).isEqualTo("ACTIVITY_STATUS_COMPLETED");
            }
        }
        assertThat(root.listUsers())
                .filteredOn(u -> u.path("userName").asString().startsWith("concurrent-"))
                .hasSize(CLIENTS * 4);
    }

    @Test
    void concurrentCreationsNeverExceedTheUserLimit() throws Exception {
        int limit = 5;
        TestServer small = TestServer.start(
                store,
                c -> c.withLimits(dev.keyhaven.server.user.UserLimits.builder()
                        .usersPerOrganization(limit)
                        .build()),
                java.time.Clock.systemUTC());
        try {
            KeyhavenClient client = small.rootClient();
            List<Future<Integer>> outcomes = new ArrayList<>();
            try (ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor()) {
                for (int i = 0; i < CLIENTS; i++) {
                    String name = "capped-" + i;
                    outcomes.add(executor.submit(() -> {
                        try {
                            client.createUsers(List.of(new UserParams(
                                    name, name + "@example.com", null, List.of(), List.of(), List.of(), List.of())));
                            return 200;
                        } catch (dev.keyhaven.client.KeyhavenApiException e) {
                            return e.httpStatus();
                        }
                    }));
                }
            }
            List<Integer> statuses = new ArrayList<>();
            for (Future<Integer> outcome : outcomes) {
                statuses.add(outcome.get());
            }
            assertThat(statuses).filteredOn(s -> s == 200).hasSize(limit - 1);
            assertThat(statuses).filteredOn(s -> s != 200).containsOnly(429);
            assertThat(client.listUsers()).hasSize(limit);
        } finally {
            small.close();
        }
    }

    @Test
    void concurrentIdenticalSubmissionsYieldOneActivityAndOneEffect() throws Exception {
        byte[] body = root.submitBody(
                "ACTIVITY_TYPE_CREATE_USER_TAG", java.util.Map.of("userTagName", "raced", "userIds", List.of()));
        List<Future<Activity>> results = new ArrayList<>();
        try (ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor()) {
            for (int i = 0; i < CLIENTS; i++) {
                results.add(executor.submit(() -> root.submitRaw("create_user_tag", body, "createUserTagResult")));
            }
            String id = results.getFirst().get().id();
            for (Future<Activity> result : results) {
                assertThat(result.get().id()).isEqualTo(id);
                assertThat(result.get().status()).isEqualTo("ACTIVITY_STATUS_COMPLETED");
            }
        }
        assertThat(root.listUserTags())
                .filteredOn(t -> t.path("tagName").asString().equals("raced"))
                .hasSize(1);
    }

    /**
     * Identical bodies of an activity that changes the organization and fails (a policy name already taken), raced:
     * each is answered with its failure. On PostgreSQL a failure is recorded in a transaction of its own; it must take
     * the organization's row before it inserts the activity, as the racing submission did, or the two wait on each
     * other and the database aborts one of them (a deadlock, then a 500).
     */
    @Test
    void concurrentIdenticalFailingSubmissionsAreEachAnsweredWithTheFailure() throws Exception {
        root.createPolicy("taken", "EFFECT_ALLOW", "activity.type == 'X'", "approvers.count() >= 1", "", null);
        for (int round = 0; round < 40; round++) {
            byte[] body = root.submitBody(
                    "ACTIVITY_TYPE_CREATE_POLICIES",
                    Map.of(
                            "policies",
                            List.of(Map.of(
                                    "policyName", "taken",
                                    "effect", "EFFECT_ALLOW",
                                    "condition", "activity.type == 'X'",
                                    "consensus", "approvers.count() >= 1",
                                    "notes", "round " + round))));
            List<Future<String>> outcomes = new ArrayList<>();
            try (ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor()) {
                for (int i = 0; i < CLIENTS; i++) {
                    outcomes.add(executor.submit(() -> {
                        try {
                            return root.submitRaw("create_policies", body, "createPoliciesResult")
                                    .status();
                        } catch (KeyhavenApiException e) {
                            return e.httpStatus() + " " + e.getMessage();
                        }
                    }));
                }
            }
            for (Future<String> outcome : outcomes) {
                assertThat(outcome.get())
                        .as("round %d", round)
                        .startsWith("400 ")
                        .contains("policy label must be unique");
            }
        }
    }
}
