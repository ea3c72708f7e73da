package dev.keyhaven.server.http;

import dev.keyhaven.server.activity.Activity;
import dev.keyhaven.server.activity.ActivityRenderer;
import dev.keyhaven.server.activity.ActivityService;
import dev.keyhaven.server.api.ApiException;
import dev.keyhaven.server.api.Caller;
import dev.keyhaven.server.api.ErrorCode;
import dev.keyhaven.server.api.JsonAnswer;
import dev.keyhaven.server.api.Params;
import dev.keyhaven.server.auth.CallerResolver;
import dev.keyhaven.server.auth.RequestAuthenticator;
import dev.keyhaven.server.auth.StampHeaders;
import dev.keyhaven.server.auth.VerifiedStamp;
import dev.keyhaven.server.session.ReadOnlySessions;
import dev.keyhaven.server.state.OrganizationState;
import dev.keyhaven.server.state.OrganizationStates;
import dev.keyhaven.server.state.StaleStateException;
import io.helidon.http.HeaderName;
import io.helidon.http.HeaderNames;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.util.List;
import java.util.Optional;
import java.util.function.BiFunction;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;

/**
 * The pipeline of one public API request: read the raw body (bounded), verify the stamp over exactly those bytes,
 * parse them, resolve the caller in the target organization, then answer the query or submit the activity. Every
 * failure becomes a JSON error; nothing but the operation, organization, activity, status and duration is logged.
 * The stages it shares with the auth proxy (shutdown, in-flight count, bounded body, JSON, errors, metrics, the log
 * line) are {@link JsonPipeline}'s.
 */
final class ApiEndpoint {
    static final String JSON = "application/json";
    /** Runs on a remembered state before an activity falls back to a write transaction for all of it. */
    private static final int ATTEMPTS_ON_REMEMBERED_STATE = 3;

    private final RequestAuthenticator authenticator;
    private final CallerResolver callers;
    private final ActivityService activities;
    private final OrganizationStates states;
    private final ActivityRenderer renderer;
    private final ObjectMapper json;
    private final JsonPipeline pipeline;
    private final Cors cors;
    private final ReadOnlySessions readOnlySessions;
    static final String SESSION_HEADER = "X-Session";
    // Named once: a header name built per request lower-cases its text every time.
    private static final HeaderName API_KEY_HEADER = HeaderNames.create(StampHeaders.API_KEY);
    private static final HeaderName WEBAUTHN_HEADER = HeaderNames.create(StampHeaders.WEBAUTHN);
    private static final HeaderName ATTESTED_HEADER = HeaderNames.create(StampHeaders.ATTESTED);
    private static final HeaderName SESSION = HeaderNames.create(SESSION_HEADER);

    /**
     * @param accepting false once shutdown has begun: a request that starts then is answered 503 without being
     *        processed, so a client may safely retry it elsewhere
     */
    ApiEndpoint(
            RequestAuthenticator authenticator,
            CallerResolver callers,
            ActivityService activities,
            OrganizationStates states,
            ActivityRenderer renderer,
            ObjectMapper json,
            HttpMetrics metrics,
            Cors cors,
            int maxBodyBytes,
            BooleanSupplier accepting,
            ReadOnlySessions readOnlySessions) {
        this.readOnlySessions = readOnlySessions;
        this.authenticator = authenticator;
        this.callers = callers;
        this.activities = activities;
        this.states = states;
        this.renderer = renderer;
        this.json = json;
        this.pipeline = new JsonPipeline(json, metrics, maxBodyBytes, accepting);
        this.cors = cors;
    }

    /** How many requests are being handled right now. */
    int inFlight() {
        return pipeline.inFlight();
    }

    void handle(Operation operation, ServerRequest request, ServerResponse response) {
        pipeline.run(
                operation.name(), request, response, cors::decorate, log -> answer(operation, request, response, log));
    }

    private byte[] answer(
            Operation operation, ServerRequest request, ServerResponse response, JsonPipeline.RequestLog outcome) {
        byte[] body = pipeline.body(request, response);
        StampHeaders stamps = stampHeaders(request);
        Optional<String> session = header(request, SESSION);
        if (session.isPresent()
                && stamps.apiKey().isEmpty()
                && stamps.webAuthn().isEmpty()
                && stamps.attested().isEmpty()) {
            return answerInSession(operation, session.get(), body, outcome);
        }
        VerifiedStamp stamp = authenticator.verify(stamps, body);
        Params params = Params.of(parse(body), "");
        String organizationId = params.requiredString("organizationId");
        return switch (operation.kind()) {
            case QUERY -> {
                if (operation.stateQuery().isPresent()) {
                    yield serialised(queryOnState(operation, stamp, organizationId, params, outcome));
                }
                Caller caller = resolve(operation, stamp, organizationId, outcome);
                yield serialised(operation.query().orElseThrow().handle(caller, params));
            }
            case SUBMIT -> {
                Submitted submitted = submit(operation, stamp, organizationId, body, params, outcome);
                outcome.activityId = submitted.activity().id();
                outcome.activityStatus = submitted.activity().status().wireName();
                yield json.writeValueAsBytes(
                        renderer.response(submitted.activity(), submitted.by().userId()));
            }
        };
    }

    /**
     * Answers a query on the organization's state as the database has it now, resolving the caller with that state's
     * remembered lookups. If the organization moves on while the query runs, it starts again on the new state; after
     * a few such races it reads directly in one transaction.
     */
    private Object queryOnState(
            Operation operation,
            VerifiedStamp stamp,
            String organizationId,
            Params params,
            JsonPipeline.RequestLog outcome) {
        StateQueryHandler handler = operation.stateQuery().orElseThrow();
        CallerResolver.checkOrganizationId(organizationId);
        Optional<Object> answered = onRememberedState(
                () -> states.verified(organizationId),
                operation,
                stamp,
                outcome,
                (state, caller) -> handler.handle(caller, params, state));
        if (answered.isPresent()) {
            return answered.get();
        }
        Caller caller = resolve(operation, stamp, organizationId, outcome);
        return states.readDirectly(caller.organizationId(), reads -> handler.handle(caller, params, reads));
    }

    /**
     * Runs {@code work} with the caller resolved on the state {@code state} gives, starting again on a fresh state
     * while the organization moves on; empty when there is no state or the races went on for
     * {@link #ATTEMPTS_ON_REMEMBERED_STATE} tries (the caller then falls back to a transaction).
     */
    private <T> Optional<T> onRememberedState(
            Supplier<Optional<OrganizationState>> state,
            Operation operation,
            VerifiedStamp stamp,
            JsonPipeline.RequestLog outcome,
            BiFunction<OrganizationState, Caller, T> work) {
        for (int attempt = 0; attempt < ATTEMPTS_ON_REMEMBERED_STATE; attempt++) {
            Optional<OrganizationState> current = state.get();
            if (current.isEmpty()) {
                return Optional.empty();
            }
            try {
                Caller caller = callers.resolveAt(stamp, current.get(), operation.scope());
                caller.requireMayCall(operation.name());
                outcome.organizationId = caller.organizationId();
                return Optional.of(work.apply(current.get(), caller));
            } catch (StaleStateException changedMeanwhile) {
                // Start again on the organization's new state.
            }
        }
        return Optional.empty();
    }

    /** The caller, resolved in a read transaction, and allowed to call the operation. */
    private Caller resolve(
            Operation operation, VerifiedStamp stamp, String organizationId, JsonPipeline.RequestLog outcome) {
        Caller caller = callers.resolve(stamp, organizationId, operation.scope());
        caller.requireMayCall(operation.name());
        outcome.organizationId = caller.organizationId();
        return caller;
    }

    /** The answer's JSON: as it is when it comes serialised already. */
    private byte[] serialised(Object answer) {
        return answer instanceof JsonAnswer prepared ? prepared.json() : json.writeValueAsBytes(answer);
    }

    /** A query authenticated by a read-only session ({@code X-Session}); submissions need a stamp. */
    private byte[] answerInSession(Operation operation, String session, byte[] body, JsonPipeline.RequestLog outcome) {
        if (operation.kind() != Operation.Kind.QUERY) {
            throw new ApiException(
                    ErrorCode.SIGNATURE_MISSING,
                    "a read-only session (X-Session) authenticates " + "queries only; stamp submissions");
        }
        Params params = Params.of(parse(body), "");
        String organizationId = params.requiredString("organizationId");
        CallerResolver.checkOrganizationId(organizationId);
        Caller caller = readOnlySessions.caller(session, organizationId);
        outcome.organizationId = caller.organizationId();
        if (operation.stateQuery().isPresent()) {
            return serialised(states.readDirectly(
                    caller.organizationId(),
                    reads -> operation.stateQuery().get().handle(caller, params, reads)));
        }
        return serialised(operation.query().orElseThrow().handle(caller, params));
    }

    /**
     * Submits an activity. One that changes nothing but its own record (signing) runs on the organization's
     * remembered state and starts again on a fresh one if the organization changed meanwhile; after a few such races
     * it runs like any other activity, in one write transaction.
     */
    private Submitted submit(
            Operation operation,
            VerifiedStamp stamp,
            String organizationId,
            byte[] body,
            Params params,
            JsonPipeline.RequestLog outcome) {
        if (activities.runsOnRememberedState(operation.name())) {
            CallerResolver.checkOrganizationId(organizationId);
            Optional<Submitted> submitted = onRememberedState(
                    () -> states.current(organizationId),
                    operation,
                    stamp,
                    outcome,
                    (state, caller) -> new Submitted(
                            caller.organizationId().equals(state.organizationId())
                                    ? activities.submitAt(state, operation.name(), caller, body, params)
                                    // A login of a sub-organization's user addressed to the parent: it runs in
                                    // the sub-organization, whose state this is not.
                                    : activities.submit(operation.name(), caller, body, params),
                            caller));
            if (submitted.isPresent()) {
                return submitted.get();
            }
        }
        Caller caller = resolve(operation, stamp, organizationId, outcome);
        return new Submitted(activities.submit(operation.name(), caller, body, params), caller);
    }

    /** A submitted activity and who submitted it (the response shows it as that user sees it). */
    private record Submitted(Activity activity, Caller by) {}

    private JsonNode parse(byte[] body) {
        return pipeline.parse(body);
    }

    private static StampHeaders stampHeaders(ServerRequest request) {
        return new StampHeaders(
                header(request, API_KEY_HEADER), header(request, WEBAUTHN_HEADER), header(request, ATTESTED_HEADER));
    }

    /** The header's one value; a stamp header sent twice is refused rather than resolved by picking one. */
    private static Optional<String> header(ServerRequest request, HeaderName name) {
        List<String> values = request.headers().all(name, List::of);
        if (values.size() > 1) {
            throw new ApiException(
                    ErrorCode.MALFORMED_STAMP,
                    "malformed activity stamp: a request carries exactly " + "one " + name.defaultCase() + " header");
        }
        return values.isEmpty() ? Optional.empty() : Optional.of(values.getFirst());
    }
}
