package dev.keyhaven.server.activity;

import dev.keyhaven.server.api.WireTime;
import java.time.Clock;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Optional;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The wire form of an activity: the flat object of the interface specification with every required member present
 * (empty {@code result} and {@code votes} arrays included), plus {@code failure} when it failed.
 */
public final class ActivityRenderer {
    private static final String ERROR_DETAIL_TYPE = "type.googleapis.com/errors.v1.TurnkeyErrorDetail";

    private final ObjectMapper json;
    private final TimestampStyle timestamps;
    private final Clock clock;

    public ActivityRenderer(ObjectMapper json, TimestampStyle timestamps, Clock clock) {
        this.json = json;
        this.timestamps = timestamps;
        this.clock = clock;
    }

    /** The activity as anyone sees it: {@code canApprove}/{@code canReject} say whether it takes votes at all. */
    public ObjectNode render(Activity activity) {
        return render(activity, Optional.empty());
    }

    /**
     * The activity as {@code viewer} sees it: {@code canApprove}/{@code canReject} are true while it waits for
     * consensus and the viewer has no vote on it that still counts.
     */
    public ObjectNode render(Activity activity, Optional<String> viewer) {
        ObjectNode out = json.createObjectNode();
        out.put("id", activity.id());
        out.put("organizationId", activity.organizationId());
        out.put("status", activity.status().wireName());
        out.put("type", activity.type().wireName());
        out.set("intent", activity.intent());
        out.set("result", activity.result());
        ArrayNode votes = out.putArray("votes");
        for (Vote vote : activity.votes()) {
            votes.add(renderVote(vote));
        }
        out.put("fingerprint", activity.fingerprint());
        boolean open = activity.status() == ActivityStatus.CONSENSUS_NEEDED
                && viewer.map(userId -> !activity.hasCurrentVoteBy(userId, clock.instant()))
                        .orElse(true);
        out.put("canApprove", open);
        out.put("canReject", open);
        out.set("createdAt", time(activity.createdAt()));
        out.set("updatedAt", time(activity.updatedAt()));
        if (!activity.appProofs().isEmpty()) {
            out.set("appProofs", appProofs(activity.appProofs()));
        }
        activity.failure().ifPresent(f -> {
            ObjectNode failure = out.putObject("failure");
            failure.put("code", f.code().grpc().number());
            failure.put("message", f.message());
            ObjectNode detail = failure.putArray("details").addObject();
            detail.put("@type", ERROR_DETAIL_TYPE);
            detail.put("turnkeyErrorCode", f.code().turnkeyErrorCode());
        });
        return out;
    }

    /** {@code {"activity": ...}}, the response of submit operations and of get_activity, for {@code viewer}. */
    public ObjectNode response(Activity activity, String viewer) {
        ObjectNode out = json.createObjectNode();
        out.set("activity", render(activity, Optional.of(viewer)));
        return out;
    }

    /** The wire form of app proofs ({@code v1AppProof[]}), as in {@code activity.appProofs} and list_app_proofs. */
    public ArrayNode appProofs(List<AppProof> proofs) {
        ArrayNode out = json.createArrayNode();
        for (AppProof proof : proofs) {
            out.addObject()
                    .put("scheme", proof.scheme())
                    .put("publicKey", proof.publicKey())
                    .put("proofPayload", proof.proofPayload())
                    .put("signature", proof.signature());
        }
        return out;
    }

    private ObjectNode renderVote(Vote vote) {
        ObjectNode out = json.createObjectNode();
        out.put("id", vote.id());
        out.put("userId", vote.userId());
        out.set("user", vote.user());
        out.put("activityId", vote.activityId());
        out.put("selection", vote.selection().wireName());
        out.put("message", vote.message());
        out.put("publicKey", vote.publicKey());
        out.put("signature", vote.signature());
        out.put("scheme", vote.scheme());
        out.set("createdAt", time(vote.createdAt()));
        return out;
    }

    private JsonNode time(Instant instant) {
        return switch (timestamps) {
            case STRING -> json.getNodeFactory().stringNode(DateTimeFormatter.ISO_INSTANT.format(instant));
            case OBJECT -> json.valueToTree(WireTime.of(instant));
        };
    }
}
