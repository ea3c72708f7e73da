package dev.keyhaven.server.testing;

import static org.assertj.core.api.Assertions.assertThat;

import dev.keyhaven.client.Activity;
import dev.keyhaven.client.KeyhavenClient;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Creating the policies a test needs, and removing every policy after it. */
public final class Policies {
    private Policies() {}

    /** Creates a policy (no consensus: it applies whoever submits) and returns its id. */
    public static String create(KeyhavenClient root, String effect, String condition) {
        Activity created = root.createPolicy(effect + " " + condition.hashCode(), effect, condition, "", "", null);
        assertThat(created.status()).as(condition).isEqualTo("ACTIVITY_STATUS_COMPLETED");
        return created.result().path("policyId").asString();
    }

    public static String allow(KeyhavenClient root, String condition) {
        return create(root, "EFFECT_ALLOW", condition);
    }

    public static String deny(KeyhavenClient root, String condition) {
        return create(root, "EFFECT_DENY", condition);
    }

    /** Deletes every policy of the organization. */
    public static void deleteAll(KeyhavenClient root) {
        List<String> ids = new ArrayList<>();
        root.listPolicies().forEach(p -> ids.add(p.path("policyId").asString()));
        if (!ids.isEmpty()) {
            assertThat(root.submit(
                                    "delete_policies",
                                    "ACTIVITY_TYPE_DELETE_POLICIES",
                                    Map.of("policyIds", ids),
                                    "deletePoliciesResult")
                            .status())
                    .isEqualTo("ACTIVITY_STATUS_COMPLETED");
        }
    }
}
