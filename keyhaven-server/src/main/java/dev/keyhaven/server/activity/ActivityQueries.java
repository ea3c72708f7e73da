package dev.keyhaven.server.activity;

import dev.keyhaven.server.api.ApiException;
import dev.keyhaven.server.api.Caller;
import dev.keyhaven.server.api.Pagination;
import dev.keyhaven.server.api.Params;
import dev.keyhaven.server.api.WireTime;
import dev.keyhaven.server.tx.Transactor;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/** The read side of activities: {@code get_activity}, {@code list_activities}, {@code get_policy_evaluations}. */
public final class ActivityQueries {
    private final Transactor transactor;
    private final ActivityRepository activities;
    private final ActivityRenderer renderer;
    private final ObjectMapper json;

    public ActivityQueries(
            Transactor transactor, ActivityRepository activities, ActivityRenderer renderer, ObjectMapper json) {
        this.transactor = transactor;
        this.activities = activities;
        this.renderer = renderer;
        this.json = json;
    }

    /** {@code get_activity {organizationId, activityId}} → {@code {activity}}. */
    public ObjectNode getActivity(Caller caller, Params body) {
        return renderer.response(find(caller, body.requiredString("activityId")), caller.userId());
    }

    /**
     * {@code list_activities {organizationId, filterByStatus?, filterByType?, paginationOptions?}} →
     * {@code {activities}}, newest first.
     */
    public ObjectNode listActivities(Caller caller, Params body) {
        Set<ActivityStatus> statuses =
                asSet(body.optionalEnums("filterByStatus", ActivityStatus.class), ActivityStatus.class);
        Set<ActivityType> types = asSet(body.optionalEnums("filterByType", ActivityType.class), ActivityType.class);
        Pagination page = Pagination.read(body);
        List<Activity> found = transactor.read(tx -> {
            checkCursor(tx, caller.organizationId(), page.before(), "paginationOptions.before");
            checkCursor(tx, caller.organizationId(), page.after(), "paginationOptions.after");
            return activities.list(tx, caller.organizationId(), statuses, types, page);
        });
        ObjectNode out = json.createObjectNode();
        ArrayNode list = out.putArray("activities");
        found.forEach(a -> list.add(renderer.render(a, Optional.of(caller.userId()))));
        return out;
    }

    /**
     * {@code get_policy_evaluations {organizationId, activityId}} → {@code {policyEvaluations}}: one per vote that
     * caused an evaluation, in voting order, each with its policies' outcomes and, without a {@code policyId}, the
     * overall outcome (see {@link PolicyEvaluation}); {@code createdAt} is a timestamp object, as the SDK's type says.
     * A policy that errored also carries {@code error} (which expression failed, and how) and, when that error
     * denied, {@code failsClosed: true}.
     */
    public ObjectNode getPolicyEvaluations(Caller caller, Params body) {
        Activity activity = find(caller, body.requiredString("activityId"));
        ObjectNode out = json.createObjectNode();
        ArrayNode list = out.putArray("policyEvaluations");
        for (Vote vote : activity.votes()) {
            vote.evaluation().ifPresent(evaluation -> {
                ObjectNode e = list.addObject();
                e.put("id", evaluation.id());
                e.put("activityId", activity.id());
                e.put("organizationId", activity.organizationId());
                e.put("voteId", vote.id());
                ArrayNode outcomes = e.putArray("policyEvaluations");
                evaluation.policies().forEach(p -> {
                    ObjectNode outcome = outcomes.addObject()
                            .put("policyId", p.policyId())
                            .put("outcome", "OUTCOME_" + p.outcome().name());
                    // Keyhaven's own fields: why a policy errored, and whether that error denied (a DENY policy
                    // that cannot be evaluated fails closed).
                    p.error().ifPresent(error -> outcome.put("error", error));
                    if (p.failsClosed()) {
                        outcome.put("failsClosed", true);
                    }
                });
                outcomes.addObject()
                        .put("outcome", "OUTCOME_" + evaluation.overall().name());
                e.set("createdAt", json.valueToTree(WireTime.of(vote.createdAt())));
            });
        }
        return out;
    }

    private Activity find(Caller caller, String activityId) {
        return transactor
                .read(tx -> activities.find(tx, caller.organizationId(), activityId))
                .orElseThrow(() -> ApiException.notFound(
                        "no activity found with id " + activityId + " in organization " + caller.organizationId()));
    }

    private void checkCursor(
            dev.keyhaven.server.tx.Tx tx, String organizationId, Optional<String> cursor, String field) {
        if (cursor.isPresent() && !activities.exists(tx, organizationId, cursor.get())) {
            throw ApiException.badField(field, "names no activity of this organization");
        }
    }

    private static <E extends Enum<E>> Set<E> asSet(List<E> values, Class<E> type) {
        return values.isEmpty() ? EnumSet.noneOf(type) : EnumSet.copyOf(values);
    }
}
