package dev.keyhaven.server.policy;

import dev.keyhaven.server.activity.ActivityContext;
import dev.keyhaven.server.api.ApiException;
import dev.keyhaven.server.api.ErrorCode;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Creates policies for create_policy and create_policies: within Turnkey's limit of 100 per organization and with
 * names unique in the organization ("policy label must be unique"). The activity holds its organization's state
 * version, so such activities of one organization run one at a time and count-then-insert is safe.
 */
final class PolicyWriter {
    static final int POLICIES_PER_ORGANIZATION = 100;
    static final String NAME_TAKEN = "policy label must be unique";

    private final PolicyRepository policies;

    PolicyWriter(PolicyRepository policies) {
        this.policies = policies;
    }

    /** Creates every draft or, by throwing, none; returns the new ids in order. */
    List<String> create(ActivityContext context, List<PolicyDraft> drafts) {
        String org = context.organizationId();
        int existing = policies.count(context.tx(), org);
        if (existing + drafts.size() > POLICIES_PER_ORGANIZATION) {
            throw new ApiException(
                    ErrorCode.LIMIT_EXCEEDED,
                    "organization has exceeded maximum policies (" + POLICIES_PER_ORGANIZATION + ")");
        }
        Set<String> names = new HashSet<>();
        List<String> ids = new ArrayList<>(drafts.size());
        for (PolicyDraft draft : drafts) {
            if (!names.add(draft.name()) || policies.nameTaken(context.tx(), org, draft.name())) {
                throw ApiException.badRequest(NAME_TAKEN);
            }
            String id = context.ids().next();
            policies.insert(
                    context.tx(),
                    new Policy(
                            id,
                            org,
                            draft.name(),
                            draft.effect(),
                            draft.condition(),
                            draft.consensus(),
                            draft.time(),
                            draft.notes(),
                            context.now(),
                            context.now()));
            ids.add(id);
        }
        return ids;
    }

    /** Applies an update's fields; a name taken by another policy is refused. */
    void update(ActivityContext context, Policy current, PolicyDraft changed) {
        if (!changed.name().equals(current.name())
                && policies.nameTaken(context.tx(), context.organizationId(), changed.name())) {
            throw ApiException.badRequest(NAME_TAKEN);
        }
        policies.update(context.tx(), current.with(changed, context.now()));
    }
}
