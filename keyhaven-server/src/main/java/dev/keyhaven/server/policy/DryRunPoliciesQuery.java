package dev.keyhaven.server.policy;

import dev.keyhaven.policy.engine.PolicyOutcome;
import dev.keyhaven.server.activity.Activity;
import dev.keyhaven.server.activity.ActivityReplay;
import dev.keyhaven.server.activity.ActivityStatus;
import dev.keyhaven.server.activity.Decision;
import dev.keyhaven.server.activity.PolicyEvaluation;
import dev.keyhaven.server.activity.Vote;
import dev.keyhaven.server.api.ApiException;
import dev.keyhaven.server.api.Caller;
import dev.keyhaven.server.api.Params;
import dev.keyhaven.server.api.WireTime;
import dev.keyhaven.server.tx.Transactor;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@code dry_run_policies} (Keyhaven's own query, not in Turnkey's API): how a draft policy set would decide a past
 * activity of the organization, writing nothing.
 *
 * <p>Request: {@code {organizationId, activityId, draftPolicy?, removedPolicyIds?}}. The draft set is the
 * organization's policies, in their order, with {@code removedPolicyIds} left out and {@code draftPolicy} (the fields
 * of {@code create_policy}: {@code policyName}, {@code effect}, {@code condition}, {@code consensus}, {@code time},
 * {@code notes}) added last, or, when it names a {@code policyId}, in the place of that policy. The draft is checked
 * as {@code create_policy} checks it (a 400 naming {@code draftPolicy.<field>}); ids that name no policy of the
 * organization are a 400 naming the field; an activity the organization does not have is a 404.
 *
 * <p>The activity is decided again by {@link ActivityReplay} (the path that decided it) with
 * {@link PolicyAuthorizer#deciding} (the authorizer that decided it, over the draft set), so with no change the dry
 * run reaches the recorded decision. Answer: {@code activityId}, {@code evaluatedAt} (the time of the activity's last
 * vote, the time the decision is made for), {@code decision} ({@code outcome}, the {@code status} it would lead to,
 * {@code reason}), {@code policyEvaluations} (each policy's {@code policyId} — absent for an added draft —
 * {@code policyName}, {@code effect}, {@code draft}, {@code outcome}, and {@code error}/{@code failsClosed} as
 * {@code get_policy_evaluations} gives them) and {@code recorded} (the activity's {@code status} and the overall
 * {@code outcome} of its last evaluation).
 */
public final class DryRunPoliciesQuery {
    /** The id the evaluation knows an added draft by; answered without it. Stored policies have generated ids. */
    private static final String ADDED_DRAFT_ID = "draft";

    private final Transactor transactor;
    private final PolicyRepository policies;
    private final PolicyAuthorizer authorizer;
    private final ActivityReplay replay;

    public DryRunPoliciesQuery(
            Transactor transactor, PolicyRepository policies, PolicyAuthorizer authorizer, ActivityReplay replay) {
        this.transactor = transactor;
        this.policies = policies;
        this.authorizer = authorizer;
        this.replay = replay;
    }

    /** The decision the draft set reaches. */
    public record DecisionView(String outcome, String status, String reason) {}

    /** One policy's outcome in the dry run. */
    public record PolicyResult(
            Optional<String> policyId,
            String policyName,
            String effect,
            boolean draft,
            String outcome,
            Optional<String> error,
            Optional<Boolean> failsClosed) {}

    /** What the server recorded for the activity. */
    public record Recorded(String status, Optional<String> outcome) {}

    /** The answer. */
    public record DryRun(
            String activityId,
            WireTime evaluatedAt,
            DecisionView decision,
            List<PolicyResult> policyEvaluations,
            Recorded recorded) {}

    /** The draft of the request: the policy it replaces (none: it is added), and its fields. */
    private record Draft(Optional<String> replaces, PolicyDraft fields) {}

    public DryRun dryRunPolicies(Caller caller, Params body) {
        String activityId = body.requiredString("activityId");
        Optional<Draft> draft = body.optionalObject("draftPolicy")
                .map(p -> new Draft(p.optionalString("policyId"), PolicyDraft.read(p)));
        List<String> removed = body.optionalStrings("removedPolicyIds");
        String organizationId = caller.organizationId();
        return transactor.read(tx -> {
            List<Policy> stored = policies.list(tx, organizationId);
            List<Policy> set = draftSet(stored, draft, removed, body);
            ActivityReplay.Replayed replayed = replay.replay(tx, organizationId, activityId, authorizer.deciding(set));
            return answer(replayed, set, draft.filter(d -> d.replaces().isPresent()));
        });
    }

    private static List<Policy> draftSet(
            List<Policy> stored, Optional<Draft> draft, List<String> removed, Params body) {
        Map<String, Policy> byId = new HashMap<>();
        stored.forEach(p -> byId.put(p.id(), p));
        for (int i = 0; i < removed.size(); i++) {
            if (!byId.containsKey(removed.get(i))) {
                throw ApiException.badField(
                        body.pathOf("removedPolicyIds") + "[" + i + "]", "names no policy of this organization");
            }
        }
        Optional<String> replaced = draft.flatMap(Draft::replaces);
        if (replaced.isPresent()) {
            String field = body.pathOf("draftPolicy") + ".policyId";
            if (!byId.containsKey(replaced.get())) {
                throw ApiException.badField(field, "names no policy of this organization");
            }
            if (removed.contains(replaced.get())) {
                throw ApiException.badField(field, "names a policy that removedPolicyIds removes");
            }
        }
        List<Policy> set = new ArrayList<>();
        for (Policy policy : stored) {
            if (removed.contains(policy.id())) {
                continue;
            }
            set.add(
                    replaced.equals(Optional.of(policy.id()))
                            ? policy.with(draft.orElseThrow().fields(), policy.updatedAt())
                            : policy);
        }
        if (draft.isPresent() && replaced.isEmpty()) {
            PolicyDraft fields = draft.get().fields();
            set.add(new Policy(
                    ADDED_DRAFT_ID,
                    "",
                    fields.name(),
                    fields.effect(),
                    fields.condition(),
                    fields.consensus(),
                    fields.time(),
                    fields.notes(),
                    Instant.EPOCH,
                    Instant.EPOCH));
        }
        return set;
    }

    private static DryRun answer(ActivityReplay.Replayed replayed, List<Policy> set, Optional<Draft> replacing) {
        Map<String, Policy> byId = new HashMap<>();
        set.forEach(p -> byId.put(p.id(), p));
        Optional<String> replaced = replacing.flatMap(Draft::replaces);
        List<PolicyResult> results = new ArrayList<>();
        for (PolicyOutcome outcome : replayed.decision().policies()) {
            Policy policy = byId.get(outcome.policyId());
            boolean added = outcome.policyId().equals(ADDED_DRAFT_ID);
            results.add(new PolicyResult(
                    added ? Optional.empty() : Optional.of(outcome.policyId()),
                    policy.name(),
                    policy.effect().wireName(),
                    added || replaced.equals(Optional.of(outcome.policyId())),
                    "OUTCOME_" + outcome.outcome().name(),
                    outcome.error(),
                    outcome.failsClosed() ? Optional.of(true) : Optional.empty()));
        }
        Decision decision = replayed.decision();
        ActivityStatus status = switch (decision) {
            case Decision.Allow _ -> ActivityStatus.COMPLETED;
            case Decision.NeedsConsensus _ -> ActivityStatus.CONSENSUS_NEEDED;
            case Decision.Deny _ -> ActivityStatus.FAILED;
        };
        Activity activity = replayed.activity();
        Optional<String> recordedOutcome = activity.votes().reversed().stream()
                .map(Vote::evaluation)
                .flatMap(Optional::stream)
                .findFirst()
                .map(PolicyEvaluation::overall)
                .map(o -> "OUTCOME_" + o.name());
        return new DryRun(
                activity.id(),
                WireTime.of(replayed.at()),
                new DecisionView("OUTCOME_" + decision.overall().name(), status.wireName(), decision.reason()),
                List.copyOf(results),
                new Recorded(activity.status().wireName(), recordedOutcome));
    }
}
