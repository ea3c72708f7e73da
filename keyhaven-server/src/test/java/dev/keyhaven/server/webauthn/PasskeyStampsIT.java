package dev.keyhaven.server.webauthn;

import static dev.keyhaven.server.testing.ApiErrors.assertError;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.keyhaven.client.Activity;
import dev.keyhaven.client.KeyhavenApiException;
import dev.keyhaven.client.KeyhavenClient;
import dev.keyhaven.client.Requests.UserParams;
import dev.keyhaven.client.Stamper;
import dev.keyhaven.server.api.ErrorCode;
import dev.keyhaven.server.testing.SoftwareAuthenticator;
import dev.keyhaven.server.testing.SoftwareAuthenticator.Format;
import dev.keyhaven.server.testing.SoftwareAuthenticator.Tamper;
import dev.keyhaven.server.testing.StoreKind;
import dev.keyhaven.server.testing.TestServer;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.AfterParameterizedClassInvocation;
import org.junit.jupiter.params.BeforeParameterizedClassInvocation;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code X-Stamp-WebAuthn} over real HTTP on both stores: a registered passkey authenticates and votes, and every
 * way of getting an assertion wrong is a 401 with the error code the SDKs switch on.
 */
@ParameterizedClass
@EnumSource(StoreKind.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class PasskeyStampsIT {
    private static final String ORIGIN = "https://wallet.example.org";
    private static final String RP_ID = "wallet.example.org";
    private static final ObjectMapper JSON = JsonMapper.builder().build();

    @Parameter
    StoreKind store;

    private TestServer server;
    private KeyhavenClient root;
    private SoftwareAuthenticator passkey;
    private String userId;

    @BeforeParameterizedClassInvocation
    void start() {
        server = TestServer.start(store, c -> c.withWebAuthnOrigins(List.of(ORIGIN)), Clock.systemUTC());
        root = server.rootClient();
        passkey = SoftwareAuthenticator.create(ORIGIN, RP_ID);
        userId = root.createUsers(List.of(
                        UserParams.withAuthenticators("stamper", List.of(passkey.registration("laptop", Format.NONE)))))
                .result()
                .path("userIds")
                .get(0)
                .asString();
    }

    @AfterParameterizedClassInvocation
    void stop() {
        if (server != null) {
            server.close();
        }
    }

    @Test
    void aPasskeyStampAuthenticatesItsUser() {
        KeyhavenClient.Whoami whoami = root.withStamper(passkey).whoami();

        assertThat(whoami.userId()).isEqualTo(userId);
        assertThat(whoami.username()).isEqualTo("stamper");
    }

    @Test
    void anActivityStampedWithAPasskeyRecordsAPasskeyVote() {
        SoftwareAuthenticator second = SoftwareAuthenticator.create(ORIGIN, RP_ID);

        Activity activity = root.withStamper(passkey)
                .createAuthenticators(userId, List.of(second.registration("second", Format.PACKED_SELF)));

        assertThat(activity.status()).isEqualTo("ACTIVITY_STATUS_COMPLETED");
        JsonNode vote = activity.raw().path("votes").get(0);
        assertThat(vote.path("userId").asString()).isEqualTo(userId);
        assertThat(vote.path("scheme").asString()).isEqualTo("SIGNATURE_SCHEME_TK_WEBAUTHN");
        assertThat(vote.path("publicKey").asString()).isEqualTo(passkey.publicKeyHex());
        assertThat(vote.path("message").asString()).contains("\"type\":\"ACTIVITY_TYPE_CREATE_AUTHENTICATORS_V2\"");
        assertThat(vote.path("signature").asString()).matches("[0-9a-f]+");
    }

    @Test
    void aCountingAuthenticatorMustRaiseItsCounterSoAReplayFails() {
        SoftwareAuthenticator key = SoftwareAuthenticator.counting(ORIGIN, RP_ID);
        root.createUsers(List.of(
                UserParams.withAuthenticators("counter", List.of(key.registration("key", Format.PACKED_SELF)))));
        assertThat(root.withStamper(key).whoami().username()).isEqualTo("counter");
        assertThat(root.withStamper(key).whoami().username()).isEqualTo("counter");
        byte[] body = whoamiBody();
        Stamper.Stamp stamp = key.stamp(body);

        KeyhavenClient.RawResponse first = post(body, Map.of(stamp.headerName(), stamp.headerValue()));
        KeyhavenClient.RawResponse replay = post(body, Map.of(stamp.headerName(), stamp.headerValue()));

        assertThat(first.status()).isEqualTo(200);
        assertThat(replay.status()).isEqualTo(401);
        assertThat(error(replay).path("turnkeyErrorCode").asString()).isEqualTo("SIGNATURE_INVALID");
        assertThat(error(replay).path("message").asString()).contains("counter did not increase");
    }

    @Test
    void anAuthenticatorThatDoesNotCountMayRepeatItsZeroCounter() {
        byte[] body = whoamiBody();
        Stamper.Stamp stamp = passkey.stamp(body);

        assertThat(post(body, Map.of(stamp.headerName(), stamp.headerValue())).status())
                .isEqualTo(200);
        assertThat(post(body, Map.of(stamp.headerName(), stamp.headerValue())).status())
                .isEqualTo(200);
    }

    @Test
    void aStampOverAnotherBodyIsASignatureFailure() {
        Stamper.Stamp stamp = passkey.stamp(whoamiBody());
        byte[] tampered =
                ("{\"organizationId\":\"" + server.organizationId() + "\" }").getBytes(StandardCharsets.UTF_8);

        KeyhavenClient.RawResponse response = post(tampered, Map.of(stamp.headerName(), stamp.headerValue()));

        assertThat(response.status()).isEqualTo(401);
        assertThat(error(response).path("turnkeyErrorCode").asString()).isEqualTo("SIGNATURE_INVALID");
        assertThat(error(response).path("message").asString()).startsWith("could not verify WebAuthN signature");
    }

    @Test
    void anAssertionForAnotherChallengeIsASignatureFailure() {
        assertUnauthenticated(
                passkey.tampered(Tamper.CHALLENGE), ErrorCode.SIGNATURE_INVALID, "challenge does not match");
    }

    @Test
    void aRegistrationCeremonyIsNotAStamp() {
        assertUnauthenticated(passkey.tampered(Tamper.TYPE), ErrorCode.SIGNATURE_INVALID, "type is not webauthn.get");
    }

    @Test
    void aBadSignatureIsASignatureFailure() {
        assertUnauthenticated(
                passkey.tampered(Tamper.SIGNATURE), ErrorCode.SIGNATURE_INVALID, "could not verify WebAuthN signature");
    }

    @Test
    void anAssertionFromAnOriginNotAllowedIsASignatureFailure() {
        assertUnauthenticated(passkey.tampered(Tamper.ORIGIN), ErrorCode.SIGNATURE_INVALID, "origin is not allowed");
    }

    @Test
    void anAssertionWithoutUserPresenceIsASignatureFailure() {
        assertUnauthenticated(
                passkey.tampered(Tamper.USER_NOT_PRESENT), ErrorCode.SIGNATURE_INVALID, "user-present flag is not set");
    }

    @Test
    void anUnknownCredentialIsNotFound() {
        assertUnauthenticated(
                passkey.tampered(Tamper.CREDENTIAL_ID),
                ErrorCode.CREDENTIAL_NOT_FOUND,
                "webauthn authenticator not found");
    }

    @Test
    void aHeaderThatIsNotTheStampJsonIsMalformed() {
        Stamper.Stamp good = passkey.stamp(whoamiBody());
        for (String value : List.of(
                "not json",
                "[]",
                "{\"credentialId\":\"" + passkey.credentialId() + "\"}",
                good.headerValue().replace("\"signature\":\"", "\"signature\":\"!!"))) {
            KeyhavenClient.RawResponse response = post(whoamiBody(), Map.of(SoftwareAuthenticator.HEADER, value));

            assertThat(response.status()).as(value).isEqualTo(401);
            assertThat(error(response).path("turnkeyErrorCode").asString()).isEqualTo("UNAUTHENTICATED");
            assertThat(error(response).path("message").asString()).startsWith("malformed activity stamp");
        }
    }

    @Test
    void aRequestWithAnApiKeyStampAndAPasskeyStampIsRefused() {
        byte[] body = whoamiBody();
        Stamper.Stamp webauthn = passkey.stamp(body);
        Stamper.Stamp apiKey = server.rootStamper().stamp(body);

        KeyhavenClient.RawResponse response = post(
                body, Map.of(webauthn.headerName(), webauthn.headerValue(), apiKey.headerName(), apiKey.headerValue()));

        assertThat(response.status()).isEqualTo(401);
        assertThat(error(response).path("message").asString()).contains("exactly one");
    }

    @Test
    void aRequestWithTwoPasskeyStampsIsRefused() throws IOException, InterruptedException {
        byte[] body = whoamiBody();
        Stamper.Stamp stamp = passkey.stamp(body);
        HttpRequest request = HttpRequest.newBuilder(URI.create(server.baseUrl() + "/public/v1/query/whoami"))
                .header("Content-Type", "application/json")
                .header("X-Stamp-WebAuthn", stamp.headerValue())
                .header("X-Stamp-Webauthn", stamp.headerValue())
                .POST(HttpRequest.BodyPublishers.ofByteArray(body))
                .build();

        try (HttpClient http = HttpClient.newHttpClient()) {
            HttpResponse<byte[]> response = http.send(request, HttpResponse.BodyHandlers.ofByteArray());

            assertThat(response.statusCode()).isEqualTo(401);
            assertThat(JSON.readTree(response.body()).path("message").asString())
                    .contains("exactly one");
        }
    }

    private void assertUnauthenticated(Stamper stamper, ErrorCode code, String message) {
        assertThatThrownBy(() -> root.withStamper(stamper).whoami())
                .isInstanceOfSatisfying(KeyhavenApiException.class, e -> {
                    assertError(e, code, null);
                    assertThat(e.httpStatus()).isEqualTo(401);
                    assertThat(e.serverMessage()).contains(message);
                });
    }

    private byte[] whoamiBody() {
        return ("{\"organizationId\":\"" + server.organizationId() + "\"}").getBytes(StandardCharsets.UTF_8);
    }

    private KeyhavenClient.RawResponse post(byte[] body, Map<String, String> headers) {
        return root.post("/public/v1/query/whoami", body, headers, false);
    }

    private static JsonNode error(KeyhavenClient.RawResponse response) {
        return JSON.readTree(response.body());
    }
}
