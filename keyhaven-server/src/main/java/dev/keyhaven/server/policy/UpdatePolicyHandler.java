package dev.keyhaven.server.policy;

import static dev.keyhaven.server.activity.VersionTable.version;

import dev.keyhaven.server.activity.ActivityAction;
import dev.keyhaven.server.activity.ActivityContext;
import dev.keyhaven.server.activity.ActivityHandler;
import dev.keyhaven.server.activity.ActivityResource;
import dev.keyhaven.server.activity.ActivitySpec;
import dev.keyhaven.server.activity.ActivityType;
import dev.keyhaven.server.activity.VersionTable;
import dev.keyhaven.server.api.ApiException;
import dev.keyhaven.server.api.Params;

/**
 * {@code update_policy} (V2): changes the fields the intent names ({@code policyName}, {@code policyEffect},
 * {@code policyCondition}, {@code policyConsensus}, {@code policyNotes}, {@code time}; an empty {@code time} removes
 * the window) and keeps the rest; result {@code policyId}. V1 ({@code @turnkey/http} 1.0.1–2.21, sdk-server ≤ 2.5) is
 * V2 without {@code time}, answered under {@code updatePolicyResult}.
 */
final class UpdatePolicyHandler implements ActivityHandler<UpdatePolicyHandler.Intent> {
    static final VersionTable<Intent> VERSIONS = VersionTable.of(
            version(
                    ActivityType.UPDATE_POLICY_V2,
                    "updatePolicyIntentV2",
                    "updatePolicyResultV2",
                    UpdatePolicyHandler::read),
            version(
                    ActivityType.UPDATE_POLICY,
                    "updatePolicyIntent",
                    "updatePolicyResult",
                    UpdatePolicyHandler::readV1));

    private static final ActivitySpec SPEC =
            ActivitySpec.of("update_policy", ActivityResource.POLICY, ActivityAction.UPDATE, VERSIONS);

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
        return parse(parameters, ActivityType.UPDATE_POLICY_V2);
    }

    @Override
    public Intent parse(Params parameters, ActivityType type) {
        return VERSIONS.read(parameters, type);
    }

    static Intent readV1(Params parameters) {
        // V1 has no time window; reading it as V2 would apply one its client never meant to send.
        if (parameters.has("time")) {
            throw ApiException.badField(
                    parameters.pathOf("time"), "is not a parameter of ACTIVITY_TYPE_UPDATE_POLICY (V2 has it)");
        }
        return read(parameters);
    }

    static Intent read(Params parameters) {
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

    /** {@code updatePolicyResultV2}, and V1's {@code updatePolicyResult}. */
    public record Result(String policyId) {}
}
