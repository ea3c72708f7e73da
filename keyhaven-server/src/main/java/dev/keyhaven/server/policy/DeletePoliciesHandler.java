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
import java.util.List;

/**
 * {@code delete_policy} ({@code policyId} → {@code policyId}) and {@code delete_policies} ({@code policyIds} →
 * {@code policyIds}): all named policies or, if any is unknown (404 naming them), none.
 */
final class DeletePoliciesHandler implements ActivityHandler<List<String>> {
    private final PolicyRepository policies;
    private final boolean one;

    private DeletePoliciesHandler(PolicyRepository policies, boolean one) {
        this.policies = policies;
        this.one = one;
    }

    /** {@code delete_policy}. */
    public static DeletePoliciesHandler single(PolicyRepository policies) {
        return new DeletePoliciesHandler(policies, true);
    }

    /** {@code delete_policies}. */
    public static DeletePoliciesHandler batch(PolicyRepository policies) {
        return new DeletePoliciesHandler(policies, false);
    }

    @Override
    public ActivitySpec spec() {
        return one
                ? ActivitySpec.of(
                        "delete_policy",
                        ActivityResource.POLICY,
                        ActivityAction.DELETE,
                        new ActivityVersion(ActivityType.DELETE_POLICY, "deletePolicyIntent", "deletePolicyResult"))
                : ActivitySpec.of(
                        "delete_policies",
                        ActivityResource.POLICY,
                        ActivityAction.DELETE,
                        new ActivityVersion(
                                ActivityType.DELETE_POLICIES, "deletePoliciesIntent", "deletePoliciesResult"));
    }

    @Override
    public List<String> parse(Params parameters) {
        return one ? List.of(parameters.requiredString("policyId")) : parameters.requiredIds("policyIds", "policy");
    }

    @Override
    public Object execute(ActivityContext context, List<String> policyIds) {
        ApiException.requireNoneMissing("policy", policies.missing(context.tx(), context.organizationId(), policyIds));
        policies.delete(context.tx(), context.organizationId(), policyIds);
        return one ? new SingleResult(policyIds.getFirst()) : new BatchResult(policyIds);
    }

    /** {@code deletePolicyResult}. */
    public record SingleResult(String policyId) {}

    /** {@code deletePoliciesResult}. */
    public record BatchResult(List<String> policyIds) {}
}
