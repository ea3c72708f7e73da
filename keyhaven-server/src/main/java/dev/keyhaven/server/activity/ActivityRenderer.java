package dev.keyhaven.server.activity;

import dev.keyhaven.server.api.WireTime;
import java.time.Clock;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import tools.jackson.core.JsonGenerator;
import tools.jackson.databind.JacksonSerializable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.SerializationContext;
import tools.jackson.databind.jsontype.TypeSerializer;
import tools.jackson.databind.node.ArrayNode;

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
    public JacksonSerializable render(Activity activity) {
        return render(activity, Optional.empty());
    }

    /**
     * The activity as {@code viewer} sees it: {@code canApprove}/{@code canReject} are true while it waits for
     * consensus and the viewer has no vote on it that still counts. Written straight to whatever generator serialises
     * it, with no tree in between: a submission's answer is made on every request (a tree, when one is wanted, is
     * {@code ObjectMapper.valueToTree} of it).
     */
    public JacksonSerializable render(Activity activity, Optional<String> viewer) {
        boolean open = activity.status() == ActivityStatus.CONSENSUS_NEEDED
                && viewer.map(userId -> !activity.hasCurrentVoteBy(userId, clock.instant()))
                        .orElse(true);
        return new Written(generator -> write(generator, activity, open));
    }

    /** {@code {"activity": ...}}, the response of submit operations and of get_activity, for {@code viewer}. */
    public JacksonSerializable response(Activity activity, String viewer) {
        JacksonSerializable rendered = render(activity, Optional.of(viewer));
        return new Written(generator -> {
            generator.writeStartObject();
            generator.writeName("activity");
            generator.writePOJO(rendered);
            generator.writeEndObject();
        });
    }

    private void write(JsonGenerator out, Activity activity, boolean open) {
        out.writeStartObject();
        out.writeStringProperty("id", activity.id());
        out.writeStringProperty("organizationId", activity.organizationId());
        out.writeStringProperty("status", activity.status().wireName());
        out.writeStringProperty("type", activity.type().wireName());
        writeTree(out, "intent", activity.intent());
        writeTree(out, "result", activity.result());
        out.writeArrayPropertyStart("votes");
        for (Vote vote : activity.votes()) {
            writeVote(out, vote);
        }
        out.writeEndArray();
        out.writeStringProperty("fingerprint", activity.fingerprint());
        out.writeBooleanProperty("canApprove", open);
        out.writeBooleanProperty("canReject", open);
        writeTime(out, "createdAt", activity.createdAt());
        writeTime(out, "updatedAt", activity.updatedAt());
        if (!activity.appProofs().isEmpty()) {
            out.writeName("appProofs");
            out.writeTree(appProofs(activity.appProofs()));
        }
        if (activity.failure().isPresent()) {
            Failure failure = activity.failure().get();
            out.writeObjectPropertyStart("failure");
            out.writeNumberProperty("code", failure.code().grpc().number());
            out.writeStringProperty("message", failure.message());
            out.writeArrayPropertyStart("details");
            out.writeStartObject();
            out.writeStringProperty("@type", ERROR_DETAIL_TYPE);
            out.writeStringProperty("turnkeyErrorCode", failure.code().turnkeyErrorCode());
            out.writeEndObject();
            out.writeEndArray();
            out.writeEndObject();
        }
        out.writeEndObject();
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

    private void writeVote(JsonGenerator out, Vote vote) {
        out.writeStartObject();
        out.writeStringProperty("id", vote.id());
        out.writeStringProperty("userId", vote.userId());
        writeTree(out, "user", vote.user());
        out.writeStringProperty("activityId", vote.activityId());
        out.writeStringProperty("selection", vote.selection().wireName());
        out.writeStringProperty("message", vote.message());
        out.writeStringProperty("publicKey", vote.publicKey());
        out.writeStringProperty("signature", vote.signature());
        out.writeStringProperty("scheme", vote.scheme());
        writeTime(out, "createdAt", vote.createdAt());
        out.writeEndObject();
    }

    /** A member holding a tree; a missing one is written {@code null}, as a tree's {@code set(name, null)} was. */
    private static void writeTree(JsonGenerator out, String name, JsonNode value) {
        out.writeName(name);
        if (value == null) {
            out.writeNull();
        } else {
            out.writeTree(value);
        }
    }

    private void writeTime(JsonGenerator out, String name, Instant instant) {
        out.writeName(name);
        switch (timestamps) {
            case STRING -> out.writeString(DateTimeFormatter.ISO_INSTANT.format(instant));
            case OBJECT -> out.writePOJO(WireTime.of(instant));
        }
    }

    /** JSON that writes itself ({@link JacksonSerializable}): to bytes for an answer, to a tree when asked. */
    private record Written(Consumer<JsonGenerator> writer) implements JacksonSerializable {
        @Override
        public void serialize(JsonGenerator generator, SerializationContext context) {
            writer.accept(generator);
        }

        @Override
        public void serializeWithType(
                JsonGenerator generator, SerializationContext context, TypeSerializer typeSerializer) {
            writer.accept(generator);
        }
    }
}
