package dev.keyhaven.policy;

import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Builds environments shaped like the server will build them for one activity: the consensus keywords
 * ({@code approvers}, {@code credentials}) and the condition keywords of turnkey-api.md §4.
 */
final class TurnkeyEnvironments {
    private final Map<String, Value> keywords = new HashMap<>();

    static TurnkeyEnvironments activity(String type, String resource, String action) {
        return activity(type, resource, action, Map.of());
    }

    /** {@code kind} is the type without its prefix and version, e.g. SIGN_TRANSACTION. */
    static TurnkeyEnvironments activity(String type, String resource, String action, Map<String, Value> params) {
        String kind = type.replaceFirst("^ACTIVITY_TYPE_", "").replaceFirst("_V\\d+$", "");
        TurnkeyEnvironments environment = new TurnkeyEnvironments();
        environment.keywords.put(
                "activity",
                Value.struct(Map.of(
                        "type",
                        Value.of(type),
                        "kind",
                        Value.of(kind),
                        "resource",
                        Value.of(resource),
                        "action",
                        Value.of(action),
                        "params",
                        Value.struct(params))));
        return environment;
    }

    static Value user(String id, String... tags) {
        return Value.struct(Map.of(
                "id",
                Value.of(id),
                "tags",
                Value.strings(List.of(tags)),
                "email",
                Value.of(id + "@example.com"),
                "alias",
                Value.of("alias-" + id)));
    }

    static Value apiKey(String id, String userId, String publicKey) {
        return Value.struct(Map.of(
                "id",
                Value.of(id),
                "user_id",
                Value.of(userId),
                "type",
                Value.of("CREDENTIAL_TYPE_API_KEY_P256"),
                "public_key",
                Value.of(publicKey)));
    }

    static Value passkey(String id, String userId, String credentialId, String publicKey) {
        return Value.struct(Map.of(
                "id",
                Value.of(id),
                "user_id",
                Value.of(userId),
                "type",
                Value.of("CREDENTIAL_TYPE_WEBAUTHN_AUTHENTICATOR"),
                "credential_id",
                Value.of(credentialId),
                "public_key",
                Value.of(publicKey)));
    }

    TurnkeyEnvironments approvers(Value... users) {
        keywords.put("approvers", Value.list(users));
        return this;
    }

    TurnkeyEnvironments credentials(Value... credentials) {
        keywords.put("credentials", Value.list(credentials));
        return this;
    }

    TurnkeyEnvironments wallet(String id) {
        keywords.put(
                "wallet",
                Value.struct(Map.of(
                        "id",
                        Value.of(id),
                        "imported",
                        Value.of(false),
                        "exported",
                        Value.of(false),
                        "label",
                        Value.of("wallet " + id))));
        return this;
    }

    TurnkeyEnvironments walletAccount(String address) {
        keywords.put("wallet_account", Value.struct(Map.of("address", Value.of(address))));
        return this;
    }

    TurnkeyEnvironments privateKey(String id, String... tags) {
        keywords.put(
                "private_key",
                Value.struct(Map.of(
                        "id",
                        Value.of(id),
                        "tags",
                        Value.strings(List.of(tags)),
                        "imported",
                        Value.of(false),
                        "exported",
                        Value.of(false),
                        "label",
                        Value.of("key " + id))));
        return this;
    }

    TurnkeyEnvironments eth(Map<String, Value> fields) {
        keywords.put("eth", Value.struct(fields));
        return this;
    }

    TurnkeyEnvironments solanaTransfers(Value... transfers) {
        keywords.put("solana", Value.struct(Map.of("tx", Value.struct(Map.of("transfers", Value.list(transfers))))));
        return this;
    }

    TurnkeyEnvironments now(String instant) {
        keywords.put("time", Value.struct(Map.of("now", Value.of(Instant.parse(instant)))));
        return this;
    }

    Environment build() {
        return Environment.of(keywords);
    }
}
