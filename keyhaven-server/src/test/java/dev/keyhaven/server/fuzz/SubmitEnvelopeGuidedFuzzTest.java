package dev.keyhaven.server.fuzz;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.keyhaven.server.activity.ActivityHandler;
import dev.keyhaven.server.activity.SubmitEnvelope;
import dev.keyhaven.server.api.ApiException;
import dev.keyhaven.server.api.ErrorCode;
import dev.keyhaven.server.api.JsonBody;
import dev.keyhaven.server.api.JsonMappers;
import dev.keyhaven.server.api.Params;
import dev.keyhaven.server.oidc.OidcVerifier;
import dev.keyhaven.server.organization.CreateSubOrganizationHandler;
import dev.keyhaven.server.policy.CreatePoliciesHandler;
import dev.keyhaven.server.signing.SignRawPayloadHandler;
import dev.keyhaven.server.signing.SignTransactionHandler;
import dev.keyhaven.server.user.CreateUsersHandler;
import dev.keyhaven.server.wallet.CreateWalletHandler;
import dev.keyhaven.server.webauthn.AllowedOrigins;
import dev.keyhaven.server.webauthn.PasskeyRegistrar;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;

/**
 * Coverage-guided fuzzing of a submitted body as the request pipeline reads it (Jazzer; docs/fuzzing.md):
 * {@link JsonBody} (UTF-8 check, then the strict JSON mapper), {@link Params}, {@link SubmitEnvelope} and the parameter readers of six activities. Whatever the bytes,
 * the outcome is a parsed intent or a refusal the HTTP layer answers with a 4xx: a 400 from {@link JsonBody}, or an {@link ApiException} with a 4xx status, or {@link ErrorCode#UNIMPLEMENTED}, the documented
 * refusal of a feature this server lacks. And a body the mapper accepts has no key twice in any object (checked by an
 * independent scan), and serialises back to the same tree.
 */
class SubmitEnvelopeGuidedFuzzTest {
    /** The seeds' {@code timestampMs}: requests are read at that instant, so they are within the window. */
    private static final Instant NOW = Instant.ofEpochMilli(1_773_154_800_000L);

    private static final ObjectMapper STRICT = JsonMappers.strict();
    /** The same JSON without duplicate detection, to find duplicates independently of the strict mapper. */
    private static final ObjectMapper LENIENT = JsonMapper.builder().build();

    private static final OidcVerifier NO_ISSUERS = new OidcVerifier(List.of(), Clock.systemUTC());
    private static final PasskeyRegistrar PASSKEYS =
            new PasskeyRegistrar(AllowedOrigins.of(List.of(StampVerifiers.ORIGIN)));
    private static final List<ActivityHandler<?>> HANDLERS = List.of(
            new CreateWalletHandler(null),
            new CreateUsersHandler(null, PASSKEYS, NO_ISSUERS),
            new CreatePoliciesHandler(null),
            new SignRawPayloadHandler(null, null),
            new SignTransactionHandler(null, null, null),
            new CreateSubOrganizationHandler(null, null, PASSKEYS, null, null, NO_ISSUERS));

    static Stream<Arguments> seeds() {
        return FuzzSeeds.of("submit-envelope");
    }

    @MethodSource("seeds")
    @FuzzTest(maxDuration = "1m")
    @Timeout(10)
    void readsOrRefusesWith4xx(byte[] body) {
        JsonNode tree;
        try {
            tree = JsonBody.parse(STRICT, body);
        } catch (ApiException refused) {
            assertThat(refused.code().httpStatus()).as(refused.getMessage()).isEqualTo(400);
            return;
        }
        assertThat(duplicateKey(body))
                .as("a key the strict mapper let through twice")
                .isFalse();
        if (tree == null || tree.isMissingNode()) {
            // No JSON value at all: the HTTP layer refuses it (400) before reading it.
            return;
        }
        assertThat(STRICT.readTree(STRICT.writeValueAsBytes(tree))).isEqualTo(tree);
        try {
            Params params = Params.of(tree, "");
            params.requiredString("organizationId");
            ActivityHandler<?> handler = handlerFor(params, body.length);
            SubmitEnvelope envelope = SubmitEnvelope.read(params, handler, NOW);
            handler.parse(envelope.parameters(), envelope.version().type());
        } catch (ApiException refused) {
            int status = refused.code().httpStatus();
            if (refused.code() != ErrorCode.UNIMPLEMENTED && (status < 400 || status > 499)) {
                fail("refused with " + status + " " + refused.code() + ": " + refused.getMessage(), refused);
            }
        }
    }

    /** The handler whose operation the body's type names, else one picked by length (a type that does not match). */
    private static ActivityHandler<?> handlerFor(Params params, int length) {
        String type = params.node().path("type").asString("");
        for (ActivityHandler<?> handler : HANDLERS) {
            if (handler.spec().versions().stream().map(v -> v.type().wireName()).anyMatch(type::equals)) {
                return handler;
            }
        }
        return HANDLERS.get(length % HANDLERS.size());
    }

    /**
     * Whether some object of the document's first value (what {@code readTree} reads) repeats a key: a streaming scan
     * that keeps the keys of each open object.
     */
    private static boolean duplicateKey(byte[] body) {
        try (JsonParser parser = LENIENT.createParser(body)) {
            List<Set<String>> open = new ArrayList<>();
            int depth = 0;
            for (JsonToken token = parser.nextToken(); token != null; token = parser.nextToken()) {
                switch (token) {
                    case START_OBJECT -> open.add(new HashSet<>());
                    case END_OBJECT -> open.removeLast();
                    case PROPERTY_NAME -> {
                        if (!open.getLast().add(parser.currentName())) {
                            return true;
                        }
                    }
                    default -> {}
                }
                depth += token.isStructStart() ? 1 : token.isStructEnd() ? -1 : 0;
                if (depth == 0) {
                    return false;
                }
            }
            return false;
        }
    }
}
