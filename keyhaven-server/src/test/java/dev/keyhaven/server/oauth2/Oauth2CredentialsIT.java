package dev.keyhaven.server.oauth2;

import static dev.keyhaven.server.testing.ApiErrors.apiError;
import static dev.keyhaven.server.testing.ApiErrors.assertError;
import static org.assertj.core.api.Assertions.assertThat;

import dev.keyhaven.client.Activity;
import dev.keyhaven.client.KeyhavenApiException;
import dev.keyhaven.crypto.EcCurve;
import dev.keyhaven.crypto.KeyCurve;
import dev.keyhaven.crypto.SecretBytes;
import dev.keyhaven.server.api.ErrorCode;
import dev.keyhaven.server.testing.ClientSecrets;
import dev.keyhaven.server.testing.OnBothStores;
import dev.keyhaven.server.testing.TestServer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * OAuth 2.0 credentials through the API on both stores: the discovery key, create / get / list / update / delete
 * with every field of the seed's §2.5, each operation's error paths (Turnkey's codes, the field named, the envelope
 * never echoed, nothing written), and the plain secret in no response and no database column.
 */
class Oauth2CredentialsIT extends OnBothStores {
    private static final String X = "OAUTH2_PROVIDER_X";
    private static final String DISCORD = "OAUTH2_PROVIDER_DISCORD";

    private String key() {
        return ClientSecrets.encryptionKey(server.baseUrl());
    }

    private static String uniqueClientId() {
        return "client-" + UUID.randomUUID();
    }

    private Activity create(Object provider, String clientId, String envelope) {
        Map<String, Object> p = new LinkedHashMap<>();
        p.put("provider", provider);
        p.put("clientId", clientId);
        p.put("encryptedClientSecret", envelope);
        return root.submit(
                "create_oauth2_credential",
                "ACTIVITY_TYPE_CREATE_OAUTH2_CREDENTIAL",
                p,
                "createOauth2CredentialResult");
    }

    private Activity update(String id, Object provider, String clientId, String envelope) {
        Map<String, Object> p = new LinkedHashMap<>();
        p.put("oauth2CredentialId", id);
        p.put("provider", provider);
        p.put("clientId", clientId);
        p.put("encryptedClientSecret", envelope);
        return root.submit(
                "update_oauth2_credential",
                "ACTIVITY_TYPE_UPDATE_OAUTH2_CREDENTIAL",
                p,
                "updateOauth2CredentialResult");
    }

    private Activity delete(Map<String, Object> params) {
        return root.submit(
                "delete_oauth2_credential",
                "ACTIVITY_TYPE_DELETE_OAUTH2_CREDENTIAL",
                params,
                "deleteOauth2CredentialResult");
    }

    private JsonNode get(String id) {
        return root.query("get_oauth2_credential", Map.of("oauth2CredentialId", id))
                .path("oauth2Credential");
    }

    private JsonNode list() {
        return root.query("list_oauth2_credentials", Map.of()).path("oauth2Credentials");
    }

    private List<String> listedIds() {
        List<String> ids = new ArrayList<>();
        list().forEach(c -> ids.add(c.path("oauth2CredentialId").asString()));
        return ids;
    }

    private String createdId(String provider, String clientId, String envelope) {
        Activity created = create(provider, clientId, envelope);
        assertThat(created.status()).isEqualTo("ACTIVITY_STATUS_COMPLETED");
        return created.result().path("oauth2CredentialId").asString();
    }

    private static void assertBadField(KeyhavenApiException e, String field, String notEchoed) {
        assertError(e, ErrorCode.BAD_REQUEST, field);
        if (notEchoed != null) {
            assertThat(e.getMessage()).doesNotContain(notEchoed);
        }
    }

    @Test
    void theEncryptionKeyIsServedUnauthenticated() throws Exception {
        HttpResponse<String> response = HttpClient.newHttpClient()
                .send(
                        HttpRequest.newBuilder(URI.create(server.baseUrl() + ClientSecrets.DISCOVERY_PATH))
                                .GET()
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("Content-Type"))
                .hasValueSatisfying(t -> assertThat(t).startsWith("application/json"));
        JsonNode body = JsonMapper.builder().build().readTree(response.body());
        assertThat(body.propertyNames()).containsExactly("publicKey");
        assertThat(body.path("publicKey").asString()).matches("04[0-9a-f]{128}");
        // Another server on the same database serves the same key: it is stored sealed, not generated per start.
        try (TestServer peer = server.peer()) {
            assertThat(ClientSecrets.encryptionKey(peer.baseUrl()))
                    .isEqualTo(body.path("publicKey").asString());
        }
    }

    @Test
    void credentialsAreCreatedReadListedUpdatedAndDeletedWithEveryField() {
        String clientId = uniqueClientId();
        String envelope = ClientSecrets.encrypt(key(), "first secret");
        Activity created = create(X, clientId, envelope);
        assertThat(created.status()).isEqualTo("ACTIVITY_STATUS_COMPLETED");
        assertThat(created.type()).isEqualTo("ACTIVITY_TYPE_CREATE_OAUTH2_CREDENTIAL");
        String id = created.result().path("oauth2CredentialId").asString();
        assertThat(created.raw()
                        .path("intent")
                        .path("createOauth2CredentialIntent")
                        .path("clientId")
                        .asString())
                .isEqualTo(clientId);

        JsonNode credential = get(id);
        assertThat(credential.propertyNames())
                .containsExactlyInAnyOrder(
                        "oauth2CredentialId",
                        "organizationId",
                        "provider",
                        "clientId",
                        "encryptedClientSecret",
                        "createdAt",
                        "updatedAt");
        assertThat(credential.path("oauth2CredentialId").asString()).isEqualTo(id);
        assertThat(credential.path("organizationId").asString()).isEqualTo(server.organizationId());
        assertThat(credential.path("provider").asString()).isEqualTo(X);
        assertThat(credential.path("clientId").asString()).isEqualTo(clientId);
        assertThat(credential.path("encryptedClientSecret").asString()).isEqualTo(envelope);
        for (String time : List.of("createdAt", "updatedAt")) {
            assertThat(credential.path(time).propertyNames()).containsExactlyInAnyOrder("seconds", "nanos");
            assertThat(credential.path(time).path("seconds").asString()).matches("[1-9][0-9]{9}");
            assertThat(credential.path(time).path("nanos").asString()).matches("[0-9]+");
        }
        assertThat(credential.path("updatedAt")).isEqualTo(credential.path("createdAt"));

        String secondId = createdId(DISCORD, uniqueClientId(), ClientSecrets.encrypt(key(), "second"));
        assertThat(listedIds()).containsSubsequence(id, secondId);
        JsonNode listed = null;
        for (JsonNode c : list()) {
            if (c.path("oauth2CredentialId").asString().equals(id)) {
                listed = c;
            }
        }
        assertThat(listed).isEqualTo(credential);

        String newClientId = uniqueClientId();
        String newEnvelope = ClientSecrets.encrypt(key(), "rotated secret");
        Activity updated = update(id, DISCORD, newClientId, newEnvelope);
        assertThat(updated.status()).isEqualTo("ACTIVITY_STATUS_COMPLETED");
        assertThat(updated.result().path("oauth2CredentialId").asString()).isEqualTo(id);
        JsonNode after = get(id);
        assertThat(after.path("provider").asString()).isEqualTo(DISCORD);
        assertThat(after.path("clientId").asString()).isEqualTo(newClientId);
        assertThat(after.path("encryptedClientSecret").asString()).isEqualTo(newEnvelope);
        assertThat(after.path("createdAt")).isEqualTo(credential.path("createdAt"));
        assertThat(Long.parseLong(after.path("updatedAt").path("seconds").asString()))
                .isGreaterThanOrEqualTo(Long.parseLong(
                        credential.path("updatedAt").path("seconds").asString()));
        assertThat(after.path("updatedAt")).isNotEqualTo(credential.path("updatedAt"));

        Activity deleted = delete(Map.of("oauth2CredentialId", id));
        assertThat(deleted.status()).isEqualTo("ACTIVITY_STATUS_COMPLETED");
        assertThat(deleted.result().path("oauth2CredentialId").asString()).isEqualTo(id);
        assertThat(listedIds()).doesNotContain(id).contains(secondId);
        KeyhavenApiException gone = apiError(() -> get(id));
        assertThat(gone.httpStatus()).isEqualTo(404);
        assertThat(gone.turnkeyErrorCode()).isEqualTo("OAUTH2_CREDENTIAL_NOT_FOUND");
    }

    @Test
    void thePlainSecretIsInNoResponseAndNoDatabaseColumn() throws Exception {
        String secret = "plain-secret-" + UUID.randomUUID();
        String envelope = ClientSecrets.encrypt(key(), secret);
        Activity created = create(X, uniqueClientId(), envelope);
        String id = created.result().path("oauth2CredentialId").asString();
        update(id, X, uniqueClientId(), ClientSecrets.encrypt(key(), secret + "-2"));
        List<String> seen = new ArrayList<>(List.of(
                created.raw().toString(),
                get(id).toString(),
                list().toString(),
                root.query("get_activity", Map.of("activityId", created.id())).toString(),
                root.query("list_activities", Map.of()).toString()));
        try (Connection db = DriverManager.getConnection(server.databaseUrl());
                Statement statement = db.createStatement()) {
            for (String table : List.of("oauth2_credentials", "activities")) {
                try (ResultSet rs = statement.executeQuery("SELECT * FROM " + table)) {
                    int columns = rs.getMetaData().getColumnCount();
                    while (rs.next()) {
                        for (int i = 1; i <= columns; i++) {
                            seen.add(String.valueOf(rs.getObject(i)));
                        }
                    }
                }
            }
            try (ResultSet rs = statement.executeQuery("SELECT secret_sealed, encrypted_client_secret FROM "
                    + "oauth2_credentials WHERE id = '" + id + "'")) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getString(1)).isNotBlank();
                assertThat(rs.getString(2)).isNotEqualTo(envelope);
            }
        }
        byte[] plain = secret.getBytes(StandardCharsets.UTF_8);
        for (String text : seen) {
            assertThat(text)
                    .doesNotContain(secret)
                    .doesNotContain(HexFormat.of().formatHex(plain))
                    .doesNotContain(Base64.getEncoder().withoutPadding().encodeToString(plain));
        }
    }

    @Test
    void createRefusesBadProvidersClientIdsAndEnvelopesWithoutWritingAnything() {
        String key = key();
        String envelope = ClientSecrets.encrypt(key, "secret");
        List<String> before = listedIds();

        assertThat(apiError(
                                ErrorCode.INVALID_OAUTH2_PROVIDER,
                                "parameters.provider",
                                () -> create("OAUTH2_PROVIDER_GITHUB", uniqueClientId(), envelope))
                        .serverMessage())
                .isEqualTo("bad request body: parameters.provider must be OAUTH2_PROVIDER_X or "
                        + "OAUTH2_PROVIDER_DISCORD");
        assertThat(apiError(() -> create(7, uniqueClientId(), envelope)).httpStatus())
                .isEqualTo(400);

        assertBadField(apiError(() -> create(X, "  ", envelope)), "parameters.clientId", null);
        assertBadField(apiError(() -> create(X, "x".repeat(257), envelope)), "parameters.clientId", null);

        String notHex = "zz" + envelope.substring(2);
        assertBadField(apiError(() -> create(X, uniqueClientId(), notHex)), "parameters.encryptedClientSecret", notHex);
        String truncated = envelope.substring(0, envelope.length() - 2);
        assertBadField(
                apiError(() -> create(X, uniqueClientId(), truncated)), "parameters.encryptedClientSecret", truncated);
        String tooShort = envelope.substring(0, 80);
        assertBadField(
                apiError(() -> create(X, uniqueClientId(), tooShort)), "parameters.encryptedClientSecret", tooShort);
        String otherRecipient = ClientSecrets.encrypt(otherKey(), "secret");
        assertBadField(
                apiError(() -> create(X, uniqueClientId(), otherRecipient)),
                "parameters.encryptedClientSecret",
                otherRecipient);
        char last = envelope.charAt(envelope.length() - 1);
        String tampered = envelope.substring(0, envelope.length() - 1) + (last == '0' ? '1' : '0');
        assertBadField(
                apiError(() -> create(X, uniqueClientId(), tampered)), "parameters.encryptedClientSecret", tampered);
        assertBadField(apiError(() -> create(X, uniqueClientId(), "")), "parameters.encryptedClientSecret", null);
        assertBadField(
                apiError(() -> create(X, uniqueClientId(), ClientSecrets.encrypt(key, ""))),
                "parameters.encryptedClientSecret",
                null);

        String clientId = uniqueClientId();
        createdId(X, clientId, envelope);
        assertBadField(
                apiError(() -> create(X, clientId, ClientSecrets.encrypt(key, "again"))), "parameters.clientId", null);
        // The same client id with the other provider is another credential.
        createdId(DISCORD, clientId, envelope);

        List<String> after = listedIds();
        after.removeAll(before);
        assertThat(after).hasSize(2);
    }

    /** The public key (uncompressed hex) of a key pair Keyhaven does not hold. */
    private static String otherKey() {
        try (SecretBytes other = KeyCurve.P256.generatePrivateKey(new SecureRandom())) {
            return HexFormat.of().formatHex(EcCurve.P256.decompress(KeyCurve.P256.publicKey(other)));
        }
    }

    @Test
    void updateRefusesUnknownIdsBadFieldsAndAnotherCredentialsClientId() {
        String key = key();
        String id = createdId(X, uniqueClientId(), ClientSecrets.encrypt(key, "one"));
        String takenClientId = uniqueClientId();
        createdId(X, takenClientId, ClientSecrets.encrypt(key, "two"));
        JsonNode before = get(id);

        KeyhavenApiException unknown = apiError(
                () -> update(UUID.randomUUID().toString(), X, uniqueClientId(), ClientSecrets.encrypt(key, "x")));
        assertThat(unknown.httpStatus()).isEqualTo(404);
        assertThat(unknown.turnkeyErrorCode()).isEqualTo("OAUTH2_CREDENTIAL_NOT_FOUND");
        KeyhavenApiException provider =
                apiError(() -> update(id, "X", uniqueClientId(), ClientSecrets.encrypt(key, "x")));
        assertThat(provider.turnkeyErrorCode()).isEqualTo("INVALID_OAUTH2_PROVIDER");
        assertBadField(apiError(() -> update(id, X, "", ClientSecrets.encrypt(key, "x"))), "parameters.clientId", null);
        assertBadField(
                apiError(() -> update(id, X, uniqueClientId(), "0badbad")),
                "parameters.encryptedClientSecret",
                "0badbad");
        assertBadField(
                apiError(() -> update(id, X, takenClientId, ClientSecrets.encrypt(key, "x"))),
                "parameters.clientId",
                null);
        assertBadField(
                apiError(() -> root.submit(
                        "update_oauth2_credential",
                        "ACTIVITY_TYPE_UPDATE_OAUTH2_CREDENTIAL",
                        Map.of("oauth2CredentialId", id, "provider", X),
                        "updateOauth2CredentialResult")),
                "parameters.clientId",
                null);
        // Keeping its own client id is no collision.
        assertThat(update(id, X, before.path("clientId").asString(), ClientSecrets.encrypt(key, "three"))
                        .status())
                .isEqualTo("ACTIVITY_STATUS_COMPLETED");
    }

    @Test
    void deleteAndGetRefuseUnknownOrMissingIds() {
        KeyhavenApiException unknown = apiError(() -> delete(Map.of("oauth2CredentialId", "no-such-credential")));
        assertThat(unknown.httpStatus()).isEqualTo(404);
        assertThat(unknown.turnkeyErrorCode()).isEqualTo("OAUTH2_CREDENTIAL_NOT_FOUND");
        assertBadField(apiError(() -> delete(Map.of())), "parameters.oauth2CredentialId", null);

        KeyhavenApiException notFound = apiError(() -> get(UUID.randomUUID().toString()));
        assertThat(notFound.httpStatus()).isEqualTo(404);
        assertThat(notFound.turnkeyErrorCode()).isEqualTo("OAUTH2_CREDENTIAL_NOT_FOUND");
        apiError(ErrorCode.BAD_REQUEST, "oauth2CredentialId", () -> root.query("get_oauth2_credential", Map.of()));
    }
}
