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

/** {@code create_policies}: several policies at once, all or none; result {@code policyIds} in order. */
public final class CreatePoliciesHandler implements ActivityHandler<List<PolicyDraft>> {
    private static final ActivitySpec SPEC = ActivitySpec.of(
            "create_policies",
            ActivityResource.POLICY,
            ActivityAction.CREATE,
            new ActivityVersion(ActivityType.CREATE_POLICIES, "createPoliciesIntent", "createPoliciesResult"));

    private final PolicyWriter writer;

    public CreatePoliciesHandler(PolicyRepository policies) {
        this.writer = new PolicyWriter(policies);
    }

    @Override
    public ActivitySpec spec() {
        return SPEC;
    }

    @Override
    public List<PolicyDraft> parse(Params parameters) {
        List<PolicyDraft> drafts = parameters.requiredObjects("policies", PolicyDraft::read);
        if (drafts.isEmpty()) {
            throw ApiException.badField(parameters.pathOf("policies"), "must not be empty");
        }
        return drafts;
    }

    @Override
    public Object execute(ActivityContext context, List<PolicyDraft> drafts) {
        return new Result(writer.create(context, drafts));
    }

    /** {@code createPoliciesResult}. */
    public record Result(List<String> policyIds) {}
}
