package dev.keyhaven.server.policy;

import dev.keyhaven.server.activity.ActivityAction;
import dev.keyhaven.server.activity.ActivityContext;
import dev.keyhaven.server.activity.ActivityHandler;
import dev.keyhaven.server.activity.ActivityResource;
import dev.keyhaven.server.activity.ActivitySpec;
import dev.keyhaven.server.activity.ActivityType;
import dev.keyhaven.server.activity.ActivityVersion;
import dev.keyhaven.server.api.Params;

/** {@code create_policy} (V3): one policy; result {@code policyId}. */
final class CreatePolicyHandler implements ActivityHandler<PolicyDraft> {
    private static final ActivitySpec SPEC = ActivitySpec.of(
            "create_policy",
            ActivityResource.POLICY,
            ActivityAction.CREATE,
            new ActivityVersion(ActivityType.CREATE_POLICY_V3, "createPolicyIntentV3", "createPolicyResult"));

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
        return PolicyDraft.read(parameters);
    }

    @Override
    public Object execute(ActivityContext context, PolicyDraft draft) {
        return new Result(writer.create(context, java.util.List.of(draft)).getFirst());
    }

    /** {@code createPolicyResult}. */
    public record Result(String policyId) {}
}
