package dev.keyhaven.server.policy;

import static dev.keyhaven.server.activity.VersionTable.version;

import dev.keyhaven.server.activity.ActivityAction;
import dev.keyhaven.server.activity.ActivityContext;
import dev.keyhaven.server.activity.ActivityHandler;
import dev.keyhaven.server.activity.ActivityResource;
import dev.keyhaven.server.activity.ActivitySpec;
import dev.keyhaven.server.activity.ActivityType;
import dev.keyhaven.server.activity.VersionTable;
import dev.keyhaven.server.api.Params;

/**
 * {@code create_policy} (V3): one policy; result {@code policyId}. V1 and V2 ({@code @turnkey/http} 0.x) describe
 * the policy by selectors instead of a condition; {@link PolicySelectors} translates those it can read exactly and
 * refuses the rest.
 */
final class CreatePolicyHandler implements ActivityHandler<PolicyDraft> {
    static final VersionTable<PolicyDraft> VERSIONS = VersionTable.of(
            version(ActivityType.CREATE_POLICY_V3, "createPolicyIntentV3", "createPolicyResult", PolicyDraft::read),
            version(
                    ActivityType.CREATE_POLICY_V2,
                    "createPolicyIntentV2",
                    "createPolicyResult",
                    PolicySelectors::readV2),
            version(ActivityType.CREATE_POLICY, "createPolicyIntent", "createPolicyResult", PolicySelectors::readV1));

    private static final ActivitySpec SPEC =
            ActivitySpec.of("create_policy", ActivityResource.POLICY, ActivityAction.CREATE, VERSIONS);

    private final PolicyWriter writer;

    public CreatePolicyHandler(PolicyRepository policies) {
        this.writer = new PolicyWriter(policies);
    }

    @Override
    public ActivitySpec spec() {
        return SPEC;
    }

    @Override
    public PolicyDraft parse(Params parameters) {
        return parse(parameters, ActivityType.CREATE_POLICY_V3);
    }

    @Override
    public PolicyDraft parse(Params parameters, ActivityType type) {
        return VERSIONS.read(parameters, type);
    }

    @Override
    public Object execute(ActivityContext context, PolicyDraft draft) {
        return new Result(writer.create(context, java.util.List.of(draft)).getFirst());
    }

    /** {@code createPolicyResult}. */
    public record Result(String policyId) {}
}
