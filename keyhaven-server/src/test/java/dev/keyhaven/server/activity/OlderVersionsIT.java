package dev.keyhaven.server.activity;

import static dev.keyhaven.server.testing.ApiErrors.apiError;
import static org.assertj.core.api.Assertions.assertThat;

import dev.keyhaven.client.Activity;
import dev.keyhaven.client.ApiKeyStamper;
import dev.keyhaven.client.KeyhavenClient;
import dev.keyhaven.client.Requests.ApiKeyParams;
import dev.keyhaven.client.Requests.AuthenticatorParams;
import dev.keyhaven.client.Requests.UserParams;
import dev.keyhaven.client.Requests.WalletAccountParams;
import dev.keyhaven.crypto.bundle.TurnkeyHpke;
import dev.keyhaven.server.api.ErrorCode;
import dev.keyhaven.server.testing.Bundles.TargetKey;
import dev.keyhaven.server.testing.SoftwareAuthenticator;
import dev.keyhaven.server.testing.SoftwareAuthenticator.Format;
import dev.keyhaven.server.testing.StoreKind;
import dev.keyhaven.server.testing.TestServer;
import java.time.Clock;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.AfterParameterizedClassInvocation;
import org.junit.jupiter.params.BeforeParameterizedClassInvocation;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;
import tools.jackson.databind.JsonNode;

/**
 * The older activity versions that published {@code @turnkey/http} and {@code @turnkey/sdk-server} releases send,
 * through raw requests in each version's own shape, on both stores: each is read into the current operation and
 * answered under its own result key, in its own result shape; a version no client sends is refused naming
 * {@code type} and listing the accepted ones.
 */
@ParameterizedClass
@EnumSource(StoreKind.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class OlderVersionsIT {
    private static final String ORIGIN = "https://app.example.com";
    private static final String RP_ID = "example.com";

    @Parameter
    StoreKind store;

    private TestServer server;
    private KeyhavenClient root;

    @BeforeParameterizedClassInvocation
    void start() {
        server = TestServer.start(store, c -> c.withWebAuthnOrigins(List.of(ORIGIN)), Clock.systemUTC());
        root = server.rootClient();
    }

    @AfterParameterizedClassInvocation
    void stop() {
        if (server != null) {
            server.close();
        }
    }

    /** {@code apiApiKeyParams}: no {@code curveType}. */
    private static Map<String, Object> p256Key(String name, ApiKeyStamper key) {
        return Map.of("apiKeyName", name, "publicKey", key.publicKey());
    }

    /** {@code v1AuthenticatorParams}: the browser's raw credential, as {@code @turnkey/http} 0.x sent it. */
    private static Map<String, Object> rawCredential(AuthenticatorParams registration, String userId) {
        Map<String, Object> response = Map.of(
                "clientDataJson", registration.attestation().clientDataJson(),
                "attestationObject", registration.attestation().attestationObject(),
                "transports", registration.attestation().transports());
        return Map.of(
                "authenticatorName",
                registration.authenticatorName(),
                "userId",
                userId,
                "challenge",
                registration.challenge(),
                "attestation",
                Map.of(
                        "id", registration.attestation().credentialId(),
                        "type", "public-key",
                        "rawId", registration.attestation().credentialId(),
                        "response", response,
                        "clientExtensionResults", Map.of()));
    }

    private static List<String> resultKeys(Activity activity) {
        return activity.raw().path("result").propertyNames().stream().toList();
    }

    private String newUser(String name) {
        return root.submit(
                        "create_users",
                        "ACTIVITY_TYPE_CREATE_USERS_V2",
                        Map.of(
                                "users",
                                List.of(Map.of(
                                        "userName",
                                        name,
                                        "userEmail",
                                        name + "@example.com",
                                        "apiKeys",
                                        List.of(),
                                        "authenticators",
                                        List.of(),
                                        "userTags",
                                        List.of()))),
                        "createUsersResult")
                .result()
                .path("userIds")
                .get(0)
                .asString();
    }

    @Test
    void createUsersV2TakesKeysWithoutACurveAsP256() {
        ApiKeyStamper key = TestServer.newKey(ApiKeyStamper.Curve.P256);
        Map<String, Object> user = Map.of(
                "userName", "v2-user",
                "apiKeys", List.of(p256Key("laptop", key)),
                "authenticators", List.of(),
                "userTags", List.of());

        Activity created = root.submit(
                "create_users", "ACTIVITY_TYPE_CREATE_USERS_V2", Map.of("users", List.of(user)), "createUsersResult");

        assertThat(created.status()).isEqualTo("ACTIVITY_STATUS_COMPLETED");
        assertThat(resultKeys(created)).containsExactly("createUsersResult");
        assertThat(created.raw().path("intent").propertyNames()).containsExactly("createUsersIntentV2");
        String userId = created.result().path("userIds").get(0).asString();
        assertThat(root.withStamper(key).whoami().userId()).isEqualTo(userId);
        assertThat(root.getApiKeys(userId)
                        .get(0)
                        .path("credential")
                        .path("type")
                        .asString())
                .isEqualTo("CREDENTIAL_TYPE_API_KEY_P256");

        Map<String, Object> badKey = Map.of(
                "userName", "v2-bad",
                "apiKeys", List.of(Map.of("apiKeyName", "bad", "publicKey", "02ff")),
                "authenticators", List.of(),
                "userTags", List.of());
        apiError(
                ErrorCode.BAD_REQUEST,
                "parameters.users[0].apiKeys[0].publicKey",
                () -> root.submit(
                        "create_users",
                        "ACTIVITY_TYPE_CREATE_USERS_V2",
                        Map.of("users", List.of(badKey)),
                        "createUsersResult"));
    }

    @Test
    void createUsersV1RegistersTheBrowsersRawCredential() {
        SoftwareAuthenticator passkey = SoftwareAuthenticator.create(ORIGIN, RP_ID);
        Map<String, Object> user = Map.of(
                "userName", "v1-user",
                "accessType", "ACCESS_TYPE_WEB",
                "apiKeys", List.of(),
                "authenticators", List.of(rawCredential(passkey.registration("laptop", Format.NONE), "")),
                "userTags", List.of());

        Activity created = root.submit(
                "create_users", "ACTIVITY_TYPE_CREATE_USERS", Map.of("users", List.of(user)), "createUsersResult");

        assertThat(resultKeys(created)).containsExactly("createUsersResult");
        String userId = created.result().path("userIds").get(0).asString();
        assertThat(root.withStamper(passkey).whoami().userId()).isEqualTo(userId);

        Map<String, Object> v2Shaped = new LinkedHashMap<>(user);
        v2Shaped.put(
                "authenticators",
                List.of(SoftwareAuthenticator.create(ORIGIN, RP_ID).registration("v2 shape", Format.NONE)));
        apiError(
                ErrorCode.BAD_REQUEST,
                "parameters.users[0].authenticators[0].attestation.id",
                () -> root.submit(
                        "create_users",
                        "ACTIVITY_TYPE_CREATE_USERS",
                        Map.of("users", List.of(v2Shaped)),
                        "createUsersResult"));
    }

    @Test
    void createApiKeysV1AndCreateAuthenticatorsV1() {
        String userId = newUser("credentials-v1");
        ApiKeyStamper key = TestServer.newKey(ApiKeyStamper.Curve.P256);

        Activity keys = root.submit(
                "create_api_keys",
                "ACTIVITY_TYPE_CREATE_API_KEYS",
                Map.of("userId", userId, "apiKeys", List.of(p256Key("v1", key))),
                "createApiKeysResult");

        assertThat(resultKeys(keys)).containsExactly("createApiKeysResult");
        assertThat(keys.result().path("apiKeyIds")).hasSize(1);
        assertThat(root.withStamper(key).whoami().userId()).isEqualTo(userId);
        apiError(
                ErrorCode.BAD_REQUEST,
                "parameters.apiKeys[0].apiKeyName",
                () -> root.submit(
                        "create_api_keys",
                        "ACTIVITY_TYPE_CREATE_API_KEYS",
                        Map.of("userId", userId, "apiKeys", List.of(Map.of("publicKey", key.publicKey()))),
                        "createApiKeysResult"));

        SoftwareAuthenticator passkey = SoftwareAuthenticator.create(ORIGIN, RP_ID);
        Activity authenticators = root.submit(
                "create_authenticators",
                "ACTIVITY_TYPE_CREATE_AUTHENTICATORS",
                Map.of(
                        "userId",
                        userId,
                        "authenticators",
                        List.of(rawCredential(passkey.registration("phone", Format.PACKED_SELF), userId))),
                "createAuthenticatorsResult");

        assertThat(resultKeys(authenticators)).containsExactly("createAuthenticatorsResult");
        assertThat(root.withStamper(passkey).whoami().userId()).isEqualTo(userId);
        Map<String, Object> noResponse = new LinkedHashMap<>(
                rawCredential(SoftwareAuthenticator.create(ORIGIN, RP_ID).registration("x", Format.NONE), userId));
        noResponse.put("attestation", Map.of("id", "abc", "type", "public-key"));
        apiError(
                ErrorCode.BAD_REQUEST,
                "parameters.authenticators[0].attestation.response",
                () -> root.submit(
                        "create_authenticators",
                        "ACTIVITY_TYPE_CREATE_AUTHENTICATORS",
                        Map.of("userId", userId, "authenticators", List.of(noResponse)),
                        "createAuthenticatorsResult"));
    }

    @Test
    void createPrivateKeysV1AnswersBareIdsAndSignRawPayloadV1SignsByPrivateKeyId() {
        Map<String, Object> keyParams = Map.of(
                "privateKeyName",
                "v1-key-" + UUID.randomUUID(),
                "curve",
                "CURVE_SECP256K1",
                "privateKeyTags",
                List.of(),
                "addressFormats",
                List.of("ADDRESS_FORMAT_ETHEREUM"));

        Activity created = root.submit(
                "create_private_keys",
                "ACTIVITY_TYPE_CREATE_PRIVATE_KEYS",
                Map.of("privateKeys", List.of(keyParams)),
                "createPrivateKeysResult");

        assertThat(resultKeys(created)).containsExactly("createPrivateKeysResult");
        assertThat(created.result().propertyNames()).containsExactly("privateKeyIds");
        String keyId = created.result().path("privateKeyIds").get(0).asString();

        Map<String, Object> sign = Map.of(
                "privateKeyId",
                keyId,
                "payload",
                "00".repeat(32),
                "encoding",
                "PAYLOAD_ENCODING_HEXADECIMAL",
                "hashFunction",
                "HASH_FUNCTION_NO_OP");
        Activity signed =
                root.submit("sign_raw_payload", "ACTIVITY_TYPE_SIGN_RAW_PAYLOAD", sign, "signRawPayloadResult");

        assertThat(signed.status()).isEqualTo("ACTIVITY_STATUS_COMPLETED");
        assertThat(resultKeys(signed)).containsExactly("signRawPayloadResult");
        assertThat(signed.result().path("r").asString()).hasSize(64);
        Map<String, Object> v2Shaped = new LinkedHashMap<>(sign);
        v2Shaped.remove("privateKeyId");
        v2Shaped.put("signWith", keyId);
        apiError(
                ErrorCode.BAD_REQUEST,
                "parameters.privateKeyId",
                () -> root.submit(
                        "sign_raw_payload", "ACTIVITY_TYPE_SIGN_RAW_PAYLOAD", v2Shaped, "signRawPayloadResult"));
    }

    private static Map<String, Object> subOrg(Map<String, Object> rootUser, Map<String, Object> extra) {
        Map<String, Object> params = new LinkedHashMap<>();
        params.put("subOrganizationName", "old-" + UUID.randomUUID());
        params.put("rootUsers", List.of(rootUser));
        params.put("rootQuorumThreshold", 1);
        params.putAll(extra);
        return params;
    }

    private static Map<String, Object> rootUser(Map<String, Object> apiKey, boolean withOauthProviders) {
        Map<String, Object> user = new LinkedHashMap<>();
        user.put("userName", "root");
        user.put("apiKeys", List.of(apiKey));
        user.put("authenticators", List.of());
        if (withOauthProviders) {
            user.put("oauthProviders", List.of());
        }
        return user;
    }

    @Test
    void createSubOrganizationV2ToV6AnswerEachUnderItsOwnResultKey() {
        ApiKeyStamper key = TestServer.newKey(ApiKeyStamper.Curve.P256);
        Map<String, Object> p256 = p256Key("k", key);
        Map<String, Object> wallet =
                Map.of("wallet", Map.of("walletName", "w", "accounts", List.of(WalletAccountParams.ethereum(0))));

        Activity v2 = root.submit(
                "create_sub_organization",
                "ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V2",
                subOrg(rootUser(p256, false), Map.of()),
                "createSubOrganizationResult");
        assertThat(resultKeys(v2)).containsExactly("createSubOrganizationResult");
        assertThat(v2.result().propertyNames()).containsExactlyInAnyOrder("subOrganizationId", "rootUserIds");
        String subOrgId = v2.result().path("subOrganizationId").asString();
        assertThat(root.withStamper(key).forOrganization(subOrgId).whoami().organizationId())
                .isEqualTo(subOrgId);

        Activity v3 = root.submit(
                "create_sub_organization",
                "ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V3",
                subOrg(
                        rootUser(p256Key("k", TestServer.newKey(ApiKeyStamper.Curve.P256)), false),
                        Map.of("privateKeys", List.of())),
                "createSubOrganizationResultV3");
        assertThat(resultKeys(v3)).containsExactly("createSubOrganizationResultV3");
        assertThat(v3.result().path("privateKeys").isArray()).isTrue();
        assertThat(v3.result().path("rootUserIds")).hasSize(1);

        Activity v4 = root.submit(
                "create_sub_organization",
                "ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V4",
                subOrg(rootUser(p256Key("k", TestServer.newKey(ApiKeyStamper.Curve.P256)), false), wallet),
                "createSubOrganizationResultV4");
        assertThat(resultKeys(v4)).containsExactly("createSubOrganizationResultV4");
        assertThat(v4.result().path("wallet").path("addresses").get(0).asString())
                .startsWith("0x");

        Activity v5 = root.submit(
                "create_sub_organization",
                "ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V5",
                subOrg(rootUser(p256Key("k", TestServer.newKey(ApiKeyStamper.Curve.P256)), true), Map.of()),
                "createSubOrganizationResultV5");
        assertThat(resultKeys(v5)).containsExactly("createSubOrganizationResultV5");

        ApiKeyStamper ed = TestServer.newKey(ApiKeyStamper.Curve.ED25519);
        Map<String, Object> curved =
                Map.of("apiKeyName", "ed", "publicKey", ed.publicKey(), "curveType", "API_KEY_CURVE_ED25519");
        Activity v6 = root.submit(
                "create_sub_organization",
                "ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V6",
                subOrg(rootUser(curved, true), Map.of()),
                "createSubOrganizationResultV6");
        assertThat(resultKeys(v6)).containsExactly("createSubOrganizationResultV6");
        String v6Org = v6.result().path("subOrganizationId").asString();
        assertThat(root.withStamper(ed).forOrganization(v6Org).whoami().organizationId())
                .isEqualTo(v6Org);
    }

    @Test
    void createSubOrganizationErrorsNameTheFieldOfTheirVersion() {
        apiError(
                ErrorCode.BAD_REQUEST,
                "parameters.rootUsers[0].apiKeys[0].curveType",
                () -> root.submit(
                        "create_sub_organization",
                        "ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V6",
                        subOrg(rootUser(p256Key("k", TestServer.newKey(ApiKeyStamper.Curve.P256)), true), Map.of()),
                        "createSubOrganizationResultV6"));
        apiError(
                ErrorCode.BAD_REQUEST,
                "parameters.rootUsers[0].oauthProviders",
                () -> root.submit(
                        "create_sub_organization",
                        "ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V5",
                        subOrg(rootUser(p256Key("k", TestServer.newKey(ApiKeyStamper.Curve.P256)), false), Map.of()),
                        "createSubOrganizationResultV5"));
        apiError(
                ErrorCode.BAD_REQUEST,
                "parameters.privateKeys[0].curve",
                () -> v3WithKeys(List.of(Map.of("privateKeyName", "k"))));
    }

    private static Map<String, Object> keyParams(String name, String curve, List<String> tags, String... formats) {
        return Map.of(
                "privateKeyName", name, "curve", curve, "privateKeyTags", tags, "addressFormats", List.of(formats));
    }

    private Activity v3WithKeys(List<Map<String, Object>> privateKeys) {
        return v3WithKeys(TestServer.newKey(ApiKeyStamper.Curve.P256), privateKeys);
    }

    private Activity v3WithKeys(ApiKeyStamper rootKey, List<Map<String, Object>> privateKeys) {
        return root.submit(
                "create_sub_organization",
                "ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V3",
                subOrg(rootUser(p256Key("k", rootKey), false), Map.of("privateKeys", privateKeys)),
                "createSubOrganizationResultV3");
    }

    @Test
    void createSubOrganizationV3CreatesItsPrivateKeysInTheNewSubOrganization() {
        ApiKeyStamper rootKey = TestServer.newKey(ApiKeyStamper.Curve.P256);
        Activity v3 = v3WithKeys(
                rootKey,
                List.of(
                        keyParams("eth", "CURVE_SECP256K1", List.of(), "ADDRESS_FORMAT_ETHEREUM"),
                        keyParams("sol", "CURVE_ED25519", List.of(), "ADDRESS_FORMAT_SOLANA")));

        assertThat(v3.status()).isEqualTo("ACTIVITY_STATUS_COMPLETED");
        assertThat(v3.result().propertyNames())
                .containsExactlyInAnyOrder("subOrganizationId", "privateKeys", "rootUserIds");
        String subOrgId = v3.result().path("subOrganizationId").asString();
        JsonNode keys = v3.result().path("privateKeys");
        assertThat(keys).hasSize(2);
        KeyhavenClient subOrgRoot = root.withStamper(rootKey).forOrganization(subOrgId);

        JsonNode eth = subOrgRoot.getPrivateKey(keys.get(0).path("privateKeyId").asString());
        assertThat(eth.path("privateKeyName").asString()).isEqualTo("eth");
        assertThat(eth.path("curve").asString()).isEqualTo("CURVE_SECP256K1");
        assertThat(keys.get(0).path("addresses").get(0).path("format").asString())
                .isEqualTo("ADDRESS_FORMAT_ETHEREUM");
        assertThat(eth.path("addresses").get(0).path("address").asString())
                .isEqualTo(keys.get(0).path("addresses").get(0).path("address").asString())
                .startsWith("0x");

        String solId = keys.get(1).path("privateKeyId").asString();
        JsonNode sol = subOrgRoot.getPrivateKey(solId);
        String solAddress = keys.get(1).path("addresses").get(0).path("address").asString();
        assertThat(sol.path("addresses").get(0).path("address").asString()).isEqualTo(solAddress);
        // The key belongs to the sub-organization, not to the parent that submitted the activity.
        apiError(ErrorCode.NOT_FOUND, null, () -> root.getPrivateKey(solId));

        // The sub-organization's root signs with it; BouncyCastle checks the signature against the key's public key.
        byte[] message = "created with the sub-organization".getBytes(java.nio.charset.StandardCharsets.UTF_8);
        JsonNode sig = subOrgRoot
                .submit(
                        "sign_raw_payload",
                        "ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2",
                        Map.of(
                                "signWith",
                                solAddress,
                                "payload",
                                HexFormat.of().formatHex(message),
                                "encoding",
                                "PAYLOAD_ENCODING_HEXADECIMAL",
                                "hashFunction",
                                "HASH_FUNCTION_NOT_APPLICABLE"),
                        "signRawPayloadResult")
                .result();
        org.bouncycastle.crypto.signers.Ed25519Signer verifier = new org.bouncycastle.crypto.signers.Ed25519Signer();
        verifier.init(
                false,
                new org.bouncycastle.crypto.params.Ed25519PublicKeyParameters(
                        HexFormat.of().parseHex(sol.path("publicKey").asString())));
        verifier.update(message, 0, message.length);
        assertThat(verifier.verifySignature(HexFormat.of()
                        .parseHex(sig.path("r").asString() + sig.path("s").asString())))
                .isTrue();
    }

    @Test
    void createSubOrganizationV3KeyErrorsNameTheKeyAndItsField() {
        apiError(
                ErrorCode.BAD_REQUEST,
                "parameters.privateKeys[1].privateKeyName",
                () -> v3WithKeys(List.of(
                        keyParams("same", "CURVE_SECP256K1", List.of(), "ADDRESS_FORMAT_ETHEREUM"),
                        keyParams("same", "CURVE_SECP256K1", List.of(), "ADDRESS_FORMAT_ETHEREUM"))));
        apiError(
                ErrorCode.BAD_REQUEST,
                "parameters.privateKeys[0].addressFormats",
                () -> v3WithKeys(List.of(keyParams("ed", "CURVE_ED25519", List.of(), "ADDRESS_FORMAT_ETHEREUM"))));
        apiError(
                ErrorCode.BAD_REQUEST,
                "parameters.privateKeys[0].curve",
                () -> v3WithKeys(List.of(keyParams("x", "CURVE_X", List.of(), "ADDRESS_FORMAT_ETHEREUM"))));
        // A new sub-organization has no tags, so any tag id names nothing.
        apiError(
                ErrorCode.NOT_FOUND,
                "parameters.privateKeys[0].privateKeyTags[0]",
                () -> v3WithKeys(List.of(keyParams(
                        "tagged",
                        "CURVE_SECP256K1",
                        List.of(UUID.randomUUID().toString()),
                        "ADDRESS_FORMAT_ETHEREUM"))));
    }

    @Test
    void createSubOrganizationV3PastTheKeyLimitCreatesNoSubOrganization() {
        ApiKeyStamper rootKey = TestServer.newKey(ApiKeyStamper.Curve.P256);
        List<Map<String, Object>> tooMany = new java.util.ArrayList<>();
        for (int i = 0; i <= 1000; i++) {
            tooMany.add(keyParams("k" + i, "CURVE_SECP256K1", List.of()));
        }

        // Checked in the activity's transaction after the sub-organization is inserted: all of it is rolled back.
        apiError(ErrorCode.LIMIT_EXCEEDED, null, () -> v3WithKeys(rootKey, tooMany));
        assertThat(root.query("list_suborgs", Map.of("filterType", "PUBLIC_KEY", "filterValue", rootKey.publicKey()))
                        .path("organizationIds"))
                .isEmpty();
    }

    @Test
    void aVersionNoClientSendsIsRefusedListingTheAcceptedOnes() {
        var error = apiError(
                ErrorCode.BAD_REQUEST,
                "type",
                () -> root.submit(
                        "create_sub_organization",
                        "ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION",
                        Map.of("name", "v1", "rootAuthenticator", Map.of()),
                        "createSubOrganizationResult"));
        assertThat(error.getMessage())
                .contains("'ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION' is a version of create_sub_organization that"
                        + " Keyhaven does not accept (accepted: ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V8,"
                        + " ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V7, ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V6,"
                        + " ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V5, ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V4,"
                        + " ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V3, ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V2)");
    }

    @Test
    void createReadWriteSessionV1NamesTheUserByEmailAndAnswersUnderItsOwnKey() {
        String userId = newUser("rw-v1");
        TargetKey target = TargetKey.generate();
        Activity created = root.submit(
                "create_read_write_session",
                "ACTIVITY_TYPE_CREATE_READ_WRITE_SESSION",
                Map.of("targetPublicKey", target.uncompressed(), "email", "rw-v1@example.com", "apiKeyName", "s"),
                "createReadWriteSessionResult");
        assertThat(resultKeys(created)).containsExactly("createReadWriteSessionResult");
        assertThat(created.raw().path("intent").propertyNames()).containsExactly("createReadWriteSessionIntent");
        assertThat(created.result().path("userId").asString()).isEqualTo(userId);
        assertThat(created.result().path("username").asString()).isEqualTo("rw-v1");
        assertThat(created.result().path("organizationId").asString()).isEqualTo(server.organizationId());
        byte[] key = target.open(TurnkeyHpke.Encrypted.ofCredentialBundle(
                created.result().path("credentialBundle").asString()));
        KeyhavenClient session = root.withStamper(ApiKeyStamper.fromPrivateKey(
                ApiKeyStamper.Curve.P256, HexFormat.of().formatHex(key)));
        assertThat(session.whoami().userId()).isEqualTo(userId);
    }

    @Test
    void createReadWriteSessionV1NeedsTheEmailOfAUserOfTheOrganization() {
        String target = TargetKey.generate().uncompressed();
        apiError(
                ErrorCode.BAD_REQUEST,
                "parameters.email",
                () -> root.submit(
                        "create_read_write_session",
                        "ACTIVITY_TYPE_CREATE_READ_WRITE_SESSION",
                        Map.of("targetPublicKey", target, "userId", "x"),
                        "createReadWriteSessionResult"));
        apiError(
                ErrorCode.BAD_REQUEST,
                "parameters.email",
                () -> root.submit(
                        "create_read_write_session",
                        "ACTIVITY_TYPE_CREATE_READ_WRITE_SESSION",
                        Map.of("targetPublicKey", target, "email", "not-an-email"),
                        "createReadWriteSessionResult"));
        apiError(
                ErrorCode.NOT_FOUND,
                null,
                () -> root.submit(
                        "create_read_write_session",
                        "ACTIVITY_TYPE_CREATE_READ_WRITE_SESSION",
                        Map.of("targetPublicKey", target, "email", "nobody-" + UUID.randomUUID() + "@example.com"),
                        "createReadWriteSessionResult"));
    }

    @Test
    void updatePolicyV1ChangesThePolicyAndRefusesV2sTimeWindow() {
        String policyId = root.createPolicy("v1-policy", "EFFECT_ALLOW", "false", "true", "notes", null)
                .result()
                .path("policyId")
                .asString();
        Activity updated = root.submit(
                "update_policy",
                "ACTIVITY_TYPE_UPDATE_POLICY",
                Map.of("policyId", policyId, "policyName", "v1-renamed", "policyEffect", "EFFECT_DENY"),
                "updatePolicyResult");
        assertThat(resultKeys(updated)).containsExactly("updatePolicyResult");
        assertThat(updated.result().path("policyId").asString()).isEqualTo(policyId);
        assertThat(root.getPolicy(policyId).path("policyName").asString()).isEqualTo("v1-renamed");
        assertThat(root.getPolicy(policyId).path("effect").asString()).isEqualTo("EFFECT_DENY");
        apiError(
                ErrorCode.BAD_REQUEST,
                "parameters.time",
                () -> root.submit(
                        "update_policy",
                        "ACTIVITY_TYPE_UPDATE_POLICY",
                        Map.of("policyId", policyId, "time", "time.now >= Timestamp('2026-01-01T00:00:00Z')"),
                        "updatePolicyResult"));
        apiError(
                ErrorCode.BAD_REQUEST,
                "parameters.policyId",
                () -> root.submit(
                        "update_policy",
                        "ACTIVITY_TYPE_UPDATE_POLICY",
                        Map.of("policyName", "x"),
                        "updatePolicyResult"));
        // The refused time left the policy as it was.
        assertThat(root.getPolicy(policyId).has("time")).isFalse();
        root.deletePolicy(policyId);
    }

    private static Map<String, Object> selector(String subject, String operator, String target) {
        return Map.of("subject", subject, "operator", operator, "target", target);
    }

    private static Map<String, Object> selectorV2(String subject, String operator, List<String> targets) {
        return Map.of("subject", subject, "operator", operator, "targets", targets);
    }

    private static Map<String, Object> selectorPolicy(String name, String effect, List<Map<String, Object>> selectors) {
        return Map.of("policyName", name, "effect", effect, "selectors", selectors, "notes", "from selectors");
    }

    @Test
    void createPolicyV1AndV2SelectorsBecomeTheConditionThatIsEnforced() {
        ApiKeyStamper key = TestServer.newKey(ApiKeyStamper.Curve.P256);
        root.createUsers(List.of(UserParams.withApiKeys("selector-signer", List.of(ApiKeyParams.of("k", key)))));
        KeyhavenClient signer = root.withStamper(key);
        String walletId = root.createWallet("selectors", List.of(WalletAccountParams.ethereum(0)))
                .result()
                .path("walletId")
                .asString();
        String address = root.query("list_wallet_accounts", Map.of("walletId", walletId))
                .path("accounts")
                .get(0)
                .path("address")
                .asString();
        String keccak = "HASH_FUNCTION_KECCAK256";
        String text = "PAYLOAD_ENCODING_TEXT_UTF8";
        assertThat(signer.signRawPayload(address, "no policy yet", text, keccak).status())
                .isEqualTo("ACTIVITY_STATUS_FAILED");

        Activity allow = root.submit(
                "create_policy",
                "ACTIVITY_TYPE_CREATE_POLICY",
                selectorPolicy(
                        "v1 allow",
                        "EFFECT_ALLOW",
                        List.of(
                                selector("activity.action", "OPERATOR_EQUAL", "SIGN"),
                                selector("wallet.id", "OPERATOR_EQUAL", walletId))),
                "createPolicyResult");
        assertThat(resultKeys(allow)).containsExactly("createPolicyResult");
        String allowId = allow.result().path("policyId").asString();
        JsonNode stored = root.getPolicy(allowId);
        assertThat(stored.path("condition").asString())
                .isEqualTo("activity.action == 'SIGN' && wallet.id == '" + walletId + "'");
        assertThat(stored.path("consensus").asString()).isEmpty();
        assertThat(stored.path("notes").asString()).isEqualTo("from selectors");
        assertThat(signer.signRawPayload(address, "allowed by a V1 policy", text, keccak)
                        .status())
                .isEqualTo("ACTIVITY_STATUS_COMPLETED");

        Activity deny = root.submit(
                "create_policy",
                "ACTIVITY_TYPE_CREATE_POLICY_V2",
                selectorPolicy(
                        "v2 deny",
                        "EFFECT_DENY",
                        List.of(selectorV2("activity.params.hash_function", "OPERATOR_IN", List.of(keccak)))),
                "createPolicyResult");
        String denyId = deny.result().path("policyId").asString();
        assertThat(root.getPolicy(denyId).path("condition").asString())
                .isEqualTo("activity.params.hash_function in ['" + keccak + "']");
        Activity denied = signer.signRawPayload(address, "denied by a V2 policy", text, keccak);
        assertThat(denied.status()).isEqualTo("ACTIVITY_STATUS_FAILED");
        assertThat(denied.failure().orElseThrow().message()).isEqualTo("request denied by policy " + denyId);
        assertThat(signer.signRawPayload(address, "sha256 is not denied", text, "HASH_FUNCTION_SHA256")
                        .status())
                .isEqualTo("ACTIVITY_STATUS_COMPLETED");

        root.deletePolicy(denyId);
        root.deletePolicy(allowId);
    }

    @Test
    void createPolicySelectorsWithoutOneReadingAreRefusedNamingTheSelectorsField() {
        apiError(
                ErrorCode.BAD_REQUEST,
                "parameters.selectors[1].subject",
                () -> root.submit(
                        "create_policy",
                        "ACTIVITY_TYPE_CREATE_POLICY_V2",
                        selectorPolicy(
                                "refused",
                                "EFFECT_DENY",
                                List.of(
                                        selectorV2("activity.type", "OPERATOR_EQUAL", List.of("T")),
                                        selectorV2("user.name", "OPERATOR_EQUAL", List.of("x")))),
                        "createPolicyResult"));
        apiError(
                ErrorCode.BAD_REQUEST,
                "parameters.selectors[0].operator",
                () -> root.submit(
                        "create_policy",
                        "ACTIVITY_TYPE_CREATE_POLICY_V2",
                        selectorPolicy(
                                "refused",
                                "EFFECT_DENY",
                                List.of(selectorV2("activity.type", "OPERATOR_MORE_THAN", List.of("A")))),
                        "createPolicyResult"));
        apiError(
                ErrorCode.BAD_REQUEST,
                "parameters.selectors[0].target",
                () -> root.submit(
                        "create_policy",
                        "ACTIVITY_TYPE_CREATE_POLICY",
                        selectorPolicy(
                                "refused", "EFFECT_DENY", List.of(selector("activity.type", "OPERATOR_IN", "A,B"))),
                        "createPolicyResult"));
        apiError(
                ErrorCode.BAD_REQUEST,
                "parameters.selectors[0].target",
                () -> root.submit(
                        "create_policy",
                        "ACTIVITY_TYPE_CREATE_POLICY",
                        selectorPolicy(
                                "refused",
                                "EFFECT_DENY",
                                List.of(selector("activity.params.otp_length", "OPERATOR_MORE_THAN", "6.5"))),
                        "createPolicyResult"));
        apiError(
                ErrorCode.BAD_REQUEST,
                "parameters.selectors",
                () -> root.submit(
                        "create_policy",
                        "ACTIVITY_TYPE_CREATE_POLICY_V2",
                        selectorPolicy("refused", "EFFECT_ALLOW", List.of()),
                        "createPolicyResult"));
        assertThat(root.listPolicies())
                .noneMatch(p -> p.path("policyName").asString().equals("refused"));
    }
}
