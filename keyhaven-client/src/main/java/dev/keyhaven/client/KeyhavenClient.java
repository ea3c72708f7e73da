package dev.keyhaven.client;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;

/**
 * A client of the public API. Every request body is serialised once, stamped, and sent as exactly those bytes.
 * Submit operations return the {@link Activity}; errors throw {@link KeyhavenApiException}.
 */
public final class KeyhavenClient {
    private final HttpClient http;
    private final String baseUrl;
    private final Stamper stamper;
    private final String organizationId;
    private final ObjectMapper json;
    private final Clock clock;

    public KeyhavenClient(String baseUrl, Stamper stamper, String organizationId) {
        this(
                HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build(),
                baseUrl,
                stamper,
                organizationId,
                Clock.systemUTC());
    }

    private KeyhavenClient(HttpClient http, String baseUrl, Stamper stamper, String organizationId, Clock clock) {
        this.http = http;
        this.baseUrl = baseUrl.endsWith("/") ? baseUrl.substring(0, baseUrl.length() - 1) : baseUrl;
        this.stamper = stamper;
        this.organizationId = organizationId;
        this.clock = clock;
        this.json = JsonMapper.builder()
                .changeDefaultPropertyInclusion(v -> v.withValueInclusion(JsonInclude.Include.NON_NULL))
                .build();
    }

    /** The same client acting on another organization. */
    public KeyhavenClient forOrganization(String otherOrganizationId) {
        return new KeyhavenClient(http, baseUrl, stamper, otherOrganizationId, clock);
    }

    /** The same client stamping with another key. */
    public KeyhavenClient withStamper(Stamper otherStamper) {
        return new KeyhavenClient(http, baseUrl, otherStamper, organizationId, clock);
    }

    /** The same client taking {@code timestampMs} from another clock (a server whose clock a test moves). */
    public KeyhavenClient withClock(Clock otherClock) {
        return new KeyhavenClient(http, baseUrl, stamper, organizationId, otherClock);
    }

    public String organizationId() {
        return organizationId;
    }

    public ObjectMapper json() {
        return json;
    }

    // ---- raw access -------------------------------------------------------------------------------------------

    /** An HTTP response: status, body and the {@code Content-Type} header. */
    public record RawResponse(int status, byte[] body, String contentType) {}

    /** POSTs {@code body} to {@code path}, stamped when {@code stamp} is true, with any extra headers. */
    public RawResponse post(String path, byte[] body, Map<String, String> headers, boolean stamp) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(baseUrl + path))
                .timeout(Duration.ofSeconds(30))
                .header("Content-Type", "application/json")
                .header("X-Client-Version", "keyhaven-client/java")
                .POST(HttpRequest.BodyPublishers.ofByteArray(body));
        if (stamp) {
            Stamper.Stamp s = stamper.stamp(body);
            request.header(s.headerName(), s.headerValue());
        }
        headers.forEach(request::header);
        try {
            HttpResponse<byte[]> response = http.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
            return new RawResponse(
                    response.statusCode(),
                    response.body(),
                    response.headers().firstValue("Content-Type").orElse(""));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    /** Sends a query; {@code organizationId} is added when {@code body} lacks it. */
    public JsonNode query(String operation, Map<String, ?> body) {
        Map<String, Object> full = new LinkedHashMap<>();
        full.put("organizationId", organizationId);
        full.putAll(body);
        return send("/public/v1/query/" + operation, serialize(full));
    }

    /** The exact body a submit operation sends: type, timestampMs (now), organizationId, parameters. */
    public byte[] submitBody(String type, Object parameters) {
        return serialize(envelope(type, parameters));
    }

    /** Like {@link #submitBody(String, Object)}, with {@code generateAppProofs: true}. */
    public byte[] submitBodyWithAppProofs(String type, Object parameters) {
        Map<String, Object> body = envelope(type, parameters);
        body.put("generateAppProofs", true);
        return serialize(body);
    }

    private Map<String, Object> envelope(String type, Object parameters) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("type", type);
        body.put("timestampMs", Long.toString(clock.millis()));
        body.put("organizationId", organizationId);
        body.put("parameters", parameters);
        return body;
    }

    /** Submits {@code body} (from {@link #submitBody}) and reads the activity, exposing {@code resultKey}. */
    public Activity submitRaw(String operation, byte[] body, String resultKey) {
        return Activity.of(send("/public/v1/submit/" + operation, body).path("activity"), resultKey);
    }

    public Activity submit(String operation, String type, Object parameters, String resultKey) {
        return submitRaw(operation, submitBody(type, parameters), resultKey);
    }

    private JsonNode send(String path, byte[] body) {
        RawResponse response = post(path, body, Map.of(), true);
        JsonNode parsed;
        try {
            parsed = json.readTree(response.body());
        } catch (JacksonException e) {
            throw new KeyhavenApiException(response.status(), 2, "response is not JSON", "UNSPECIFIED");
        }
        if (response.status() / 100 != 2) {
            throw new KeyhavenApiException(
                    response.status(),
                    parsed.path("code").asInt(),
                    parsed.path("message").asString(),
                    parsed.path("turnkeyErrorCode").asString("UNSPECIFIED"),
                    parsed.path("details"));
        }
        return parsed;
    }

    private byte[] serialize(Object body) {
        return json.writeValueAsBytes(body);
    }

    // ---- typed operations ---------------------------------------------------------------------------------------

    /** {@code whoami}. */
    public record Whoami(String organizationId, String organizationName, String userId, String username) {}

    public Whoami whoami() {
        JsonNode r = query("whoami", Map.of());
        return new Whoami(
                r.path("organizationId").asString(),
                r.path("organizationName").asString(),
                r.path("userId").asString(),
                r.path("username").asString());
    }

    public Activity createUsers(List<Requests.UserParams> users) {
        return submit("create_users", "ACTIVITY_TYPE_CREATE_USERS_V4", Map.of("users", users), "createUsersResult");
    }

    public Activity deleteUsers(List<String> userIds) {
        return submit("delete_users", "ACTIVITY_TYPE_DELETE_USERS", Map.of("userIds", userIds), "deleteUsersResult");
    }

    public Activity createApiKeys(String userId, List<Requests.ApiKeyParams> apiKeys) {
        return submit(
                "create_api_keys",
                "ACTIVITY_TYPE_CREATE_API_KEYS_V2",
                Map.of("userId", userId, "apiKeys", apiKeys),
                "createApiKeysResult");
    }

    public Activity deleteApiKeys(String userId, List<String> apiKeyIds) {
        return submit(
                "delete_api_keys",
                "ACTIVITY_TYPE_DELETE_API_KEYS",
                Map.of("userId", userId, "apiKeyIds", apiKeyIds),
                "deleteApiKeysResult");
    }

    public Activity createAuthenticators(String userId, List<Requests.AuthenticatorParams> authenticators) {
        return submit(
                "create_authenticators",
                "ACTIVITY_TYPE_CREATE_AUTHENTICATORS_V2",
                Map.of("userId", userId, "authenticators", authenticators),
                "createAuthenticatorsResult");
    }

    public Activity deleteAuthenticators(String userId, List<String> authenticatorIds) {
        return submit(
                "delete_authenticators",
                "ACTIVITY_TYPE_DELETE_AUTHENTICATORS",
                Map.of("userId", userId, "authenticatorIds", authenticatorIds),
                "deleteAuthenticatorsResult");
    }

    public Activity createUserTag(String userTagName, List<String> userIds) {
        return submit(
                "create_user_tag",
                "ACTIVITY_TYPE_CREATE_USER_TAG",
                Map.of("userTagName", userTagName, "userIds", userIds),
                "createUserTagResult");
    }

    public Activity createSubOrganization(String name, List<Requests.RootUserParams> rootUsers, int threshold) {
        return submit(
                "create_sub_organization",
                "ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V8",
                Map.of("subOrganizationName", name, "rootUsers", rootUsers, "rootQuorumThreshold", threshold),
                "createSubOrganizationResultV8");
    }

    public Activity updateRootQuorum(int threshold, List<String> userIds) {
        return submit(
                "update_root_quorum",
                "ACTIVITY_TYPE_UPDATE_ROOT_QUORUM",
                Map.of("threshold", threshold, "userIds", userIds),
                "updateRootQuorumResult");
    }

    public Activity createWallet(String walletName, List<Requests.WalletAccountParams> accounts) {
        return submit(
                "create_wallet",
                "ACTIVITY_TYPE_CREATE_WALLET",
                Map.of("walletName", walletName, "accounts", accounts),
                "createWalletResult");
    }

    public Activity createWalletAccounts(String walletId, List<Requests.WalletAccountParams> accounts) {
        return submit(
                "create_wallet_accounts",
                "ACTIVITY_TYPE_CREATE_WALLET_ACCOUNTS",
                Map.of("walletId", walletId, "accounts", accounts),
                "createWalletAccountsResult");
    }

    public Activity createPrivateKeys(List<Requests.PrivateKeyParams> privateKeys) {
        return submit(
                "create_private_keys",
                "ACTIVITY_TYPE_CREATE_PRIVATE_KEYS_V2",
                Map.of("privateKeys", privateKeys),
                "createPrivateKeysResultV2");
    }

    /** {@code sign_raw_payload} (V2); the result holds {@code r}, {@code s} and {@code v}. */
    public Activity signRawPayload(String signWith, String payload, String encoding, String hashFunction) {
        return submit(
                "sign_raw_payload",
                "ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2",
                Map.of("signWith", signWith, "payload", payload, "encoding", encoding, "hashFunction", hashFunction),
                "signRawPayloadResult");
    }

    /**
     * {@code sign_transaction} (V2): {@code type} is a {@code TRANSACTION_TYPE_*}, {@code unsignedTransaction} the
     * chain's unsigned transaction in hex; the result's {@code signedTransaction} is the signed form, in hex.
     */
    public Activity signTransaction(String signWith, String type, String unsignedTransaction) {
        return submit(
                "sign_transaction",
                "ACTIVITY_TYPE_SIGN_TRANSACTION_V2",
                Map.of("signWith", signWith, "type", type, "unsignedTransaction", unsignedTransaction),
                "signTransactionResult");
    }

    /**
     * {@code create_policy} (V3). {@code condition}, {@code consensus} and {@code time} may be null (omitted: always
     * true / always active).
     */
    public Activity createPolicy(
            String policyName, String effect, String condition, String consensus, String notes, String time) {
        Map<String, Object> parameters = new LinkedHashMap<>();
        parameters.put("policyName", policyName);
        parameters.put("effect", effect);
        putUnlessNull(parameters, "condition", condition);
        putUnlessNull(parameters, "consensus", consensus);
        parameters.put("notes", notes);
        putUnlessNull(parameters, "time", time);
        return submit("create_policy", "ACTIVITY_TYPE_CREATE_POLICY_V3", parameters, "createPolicyResult");
    }

    public Activity deletePolicy(String policyId) {
        return submit(
                "delete_policy", "ACTIVITY_TYPE_DELETE_POLICY", Map.of("policyId", policyId), "deletePolicyResult");
    }

    /**
     * {@code approve_activity}: this client's user approves the activity with {@code fingerprint}. The response is
     * that activity; {@code resultKey} is its result key (e.g. {@code signRawPayloadResult}).
     */
    public Activity approveActivity(String fingerprint, String resultKey) {
        return submit(
                "approve_activity", "ACTIVITY_TYPE_APPROVE_ACTIVITY", Map.of("fingerprint", fingerprint), resultKey);
    }

    /** {@code reject_activity}: this client's user rejects the activity with {@code fingerprint}. */
    public Activity rejectActivity(String fingerprint, String resultKey) {
        return submit(
                "reject_activity", "ACTIVITY_TYPE_REJECT_ACTIVITY", Map.of("fingerprint", fingerprint), resultKey);
    }

    public JsonNode listPolicies() {
        return query("list_policies", Map.of()).path("policies");
    }

    public JsonNode getPolicy(String policyId) {
        return query("get_policy", Map.of("policyId", policyId)).path("policy");
    }

    public JsonNode getPolicyEvaluations(String activityId) {
        return query("get_policy_evaluations", Map.of("activityId", activityId)).path("policyEvaluations");
    }

    private static void putUnlessNull(Map<String, Object> map, String key, Object value) {
        if (value != null) {
            map.put(key, value);
        }
    }

    public JsonNode getWallet(String walletId) {
        return query("get_wallet", Map.of("walletId", walletId)).path("wallet");
    }

    public JsonNode listWallets() {
        return query("list_wallets", Map.of()).path("wallets");
    }

    public JsonNode getPrivateKey(String privateKeyId) {
        return query("get_private_key", Map.of("privateKeyId", privateKeyId)).path("privateKey");
    }

    public JsonNode getUser(String userId) {
        return query("get_user", Map.of("userId", userId)).path("user");
    }

    public JsonNode listUsers() {
        return query("list_users", Map.of()).path("users");
    }

    public JsonNode getApiKeys(String userId) {
        return query("get_api_keys", userId == null ? Map.of() : Map.of("userId", userId))
                .path("apiKeys");
    }

    public JsonNode getAuthenticators(String userId) {
        return query("get_authenticators", Map.of("userId", userId)).path("authenticators");
    }

    public JsonNode getAuthenticator(String authenticatorId) {
        return query("get_authenticator", Map.of("authenticatorId", authenticatorId))
                .path("authenticator");
    }

    public JsonNode listUserTags() {
        return query("list_user_tags", Map.of()).path("userTags");
    }

    public JsonNode getOrganization() {
        return query("get_organization", Map.of()).path("organizationData");
    }

    /** {@code list_app_proofs}: the app proofs of an activity. */
    public List<AppProofs.AppProof> listAppProofs(String activityId) {
        return AppProofs.list(
                query("list_app_proofs", Map.of("activityId", activityId)).path("appProofs"));
    }

    /** {@code get_boot_proof}: the boot proof of the start that used this ephemeral key. */
    public AppProofs.BootProof getBootProof(String ephemeralKey) {
        return AppProofs.BootProof.of(
                query("get_boot_proof", Map.of("ephemeralKey", ephemeralKey)).path("bootProof"));
    }

    /** {@code get_latest_boot_proof}: the boot proof of the key the server signs with now. */
    public AppProofs.BootProof getLatestBootProof() {
        return AppProofs.BootProof.of(
                query("get_latest_boot_proof", Map.of("appName", "keyhaven")).path("bootProof"));
    }

    /** {@code get_activity}; the typed result is not extracted (any result key). */
    public JsonNode getActivity(String activityId) {
        return query("get_activity", Map.of("activityId", activityId)).path("activity");
    }

    /** {@code list_activities} with optional filters and pagination (null to omit). */
    public List<JsonNode> listActivities(
            List<String> statuses, List<String> types, String limit, String after, String before) {
        Map<String, Object> body = new LinkedHashMap<>();
        if (statuses != null) {
            body.put("filterByStatus", statuses);
        }
        if (types != null) {
            body.put("filterByType", types);
        }
        Map<String, String> page = new LinkedHashMap<>();
        if (limit != null) {
            page.put("limit", limit);
        }
        if (after != null) {
            page.put("after", after);
        }
        if (before != null) {
            page.put("before", before);
        }
        if (!page.isEmpty()) {
            body.put("paginationOptions", page);
        }
        List<JsonNode> out = new ArrayList<>();
        query("list_activities", body).path("activities").forEach(out::add);
        return out;
    }
}
