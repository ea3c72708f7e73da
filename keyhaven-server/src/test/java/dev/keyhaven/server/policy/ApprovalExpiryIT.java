package dev.keyhaven.server.policy;

import static org.assertj.core.api.Assertions.assertThat;

import dev.keyhaven.client.Activity;
import dev.keyhaven.client.ApiKeyStamper;
import dev.keyhaven.client.KeyhavenClient;
import dev.keyhaven.client.Requests.ApiKeyParams;
import dev.keyhaven.client.Requests.UserParams;
import dev.keyhaven.server.testing.MutableClock;
import dev.keyhaven.server.testing.OnBothStores;
import dev.keyhaven.server.testing.TestServer;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** Approvals older than 24 hours no longer count; the activity stays open and its voters may approve again. */
class ApprovalExpiryIT extends OnBothStores {
    private final MutableClock clock = MutableClock.startingNow();

    @Override
    protected Clock clock() {
        return clock;
    }

    @Test
    void anApprovalOlderThanADayNoLongerCounts() {
        ApiKeyStamper aliceKey = TestServer.newKey(ApiKeyStamper.Curve.P256);
        ApiKeyStamper bobKey = TestServer.newKey(ApiKeyStamper.Curve.P256);
        KeyhavenClient admin = root.withClock(clock);
        JsonNode ids = admin.createUsers(List.of(
                        UserParams.withApiKeys("alice", List.of(ApiKeyParams.of("a", aliceKey))),
                        UserParams.withApiKeys("bob", List.of(ApiKeyParams.of("b", bobKey)))))
                .result()
                .path("userIds");
        String aliceId = ids.get(0).asString();
        String bobId = ids.get(1).asString();
        KeyhavenClient alice = admin.withStamper(aliceKey);
        KeyhavenClient bob = admin.withStamper(bobKey);
        assertThat(admin.createPolicy(
                                "alice and bob",
                                "EFFECT_ALLOW",
                                "activity.resource == 'USER'",
                                "approvers.any(u, u.id == '" + aliceId + "') && approvers.any(u, u.id == '" + bobId
                                        + "')",
                                "",
                                null)
                        .status())
                .isEqualTo("ACTIVITY_STATUS_COMPLETED");

        Activity pending = alice.createUserTag("slow", List.of());
        assertThat(pending.status()).isEqualTo("ACTIVITY_STATUS_CONSENSUS_NEEDED");
        clock.advance(Duration.ofHours(25));

        Activity stillOpen = bob.approveActivity(pending.fingerprint(), "createUserTagResult");
        assertThat(stillOpen.status()).as("alice's approval expired").isEqualTo("ACTIVITY_STATUS_CONSENSUS_NEEDED");
        assertThat(stillOpen.voteCount()).isEqualTo(2);
        assertThat(alice.getActivity(pending.id()).path("canApprove").asBoolean())
                .as("alice may approve again")
                .isTrue();

        Activity done = alice.approveActivity(pending.fingerprint(), "createUserTagResult");
        assertThat(done.status()).isEqualTo("ACTIVITY_STATUS_COMPLETED");
        assertThat(done.voteCount()).isEqualTo(3);
        assertThat(done.result().path("userTagId").asString()).isNotEmpty();
    }
}
