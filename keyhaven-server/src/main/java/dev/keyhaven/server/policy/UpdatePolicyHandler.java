package dev.keyhaven.server.policy;

import dev.keyhaven.server.activity.ActivityAction;
import dev.keyhaven.server.activity.ActivityContext;
import dev.keyhaven.server.activity.ActivityHandler;
import dev.keyhaven.server.activity.ActivityResource;
import dev.keyhaven.server.activity.ActivitySpec;
import dev.keyhaven.server.activity.ActivityType;
import dev.keyhaven.server.activity.ActivityVersion;
import dev.keyhaven.server.api.ApiException;
import dev.keyhaven.server.api.Params;

/**
 * {@code update_policy} (V2): changes the fields the intent names ({@code policyName}, {@code policyEffect},
 * {@code policyCondition}, {@code policyConsensus}, {@code policyNotes}, {@code time}; an empty {@code time} removes
 * the window) and keeps the rest; result {@code policyId}.
 */
final class UpdatePolicyHandler implements ActivityHandler<UpdatePolicyHandler.Intent> {
    private static final ActivitySpec SPEC = ActivitySpec.of(
            "update_policy",
            ActivityResource.POLICY,
            ActivityAction.UPDATE,
            new ActivityVersion(ActivityType.UPDATE_POLICY_V2, "updatePolicyIntentV2", "updatePolicyResultV2"));

    private final PolicyRepository policies;
    private final PolicyWriter writer;

    public UpdatePolicyHandler(PolicyRepository policies) {
        this.policies = policies;
        this.writer = new PolicyWriter(policies);
    }

    /** The validated parameters; the changes apply to the policy as it is when the activity executes. */
    public record Intent(String policyId, Params changes) {}

    @Override
    public ActivitySpec spec() {
        return SPEC;
    }

    @Override
    public Intent parse(Params parameters) {
        String policyId = parameters.requiredString("policyId");
        PolicyDraft.checkUpdate(parameters);
        return new Intent(policyId, parameters);
    }

    @Override
    public Object execute(ActivityContext context, Intent intent) {
        Policy current = policies.find(context.tx(), context.organizationId(), intent.policyId())
                .orElseThrow(() -> ApiException.notFound("no policy found with id " + intent.policyId()));
        writer.update(context, current, PolicyDraft.update(current, intent.changes()));
        return new Result(current.id());
    }

    /** {@code updatePolicyResultV2}. */
    public record Result(String policyId) {}
}
