package dev.keyhaven.server.policy;

import dev.keyhaven.policy.Value;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import tools.jackson.databind.JsonNode;

/**
 * The consensus keywords' elements, built from a voter's user record as each vote keeps it ({@code v1User}):
 * {@code approvers} elements are {@code {id, tags, email, alias}} (alias is the user name; a user without an email
 * has {@code ''}, so that {@code approvers.any(u, u.email == …)} does not fail on them), {@code credentials}
 * elements are {@code {id, user_id, type, public_key}} plus {@code credential_id} for passkeys.
 */
final class PolicyValues {
    /** The credential type of a key attested by each {@code X-Stamp-Attested} scheme. */
    private static final Map<String, String> ATTESTED_TYPES = Map.of(
            "STAMP_ATTESTED_SCHEME_P256_OIDC", "CREDENTIAL_TYPE_OAUTH_KEY_P256",
            "STAMP_ATTESTED_SCHEME_P256_VERIFICATION_TOKEN", "CREDENTIAL_TYPE_OTP_AUTH_KEY_P256");

    private PolicyValues() {}

    static Value user(JsonNode user) {
        List<String> tags = new ArrayList<>();
        user.path("userTags").forEach(tag -> tags.add(tag.asString()));
        return Value.struct(Map.of(
                "id",
                Value.of(user.path("userId").asString()),
                "tags",
                Value.strings(tags),
                "email",
                Value.of(user.path("userEmail").asString("")),
                "alias",
                Value.of(user.path("userName").asString())));
    }

    /**
     * The user's credential with this public key (the one that stamped a vote), if the user still has it. A key of an
     * {@code X-Stamp-Attested} stamp is no stored credential: it stands as a credential of the attestation's type
     * ({@code id} empty).
     */
    static Optional<Value> credential(JsonNode user, String publicKey, String scheme) {
        Optional<Value> stored = credentials(user).stream()
                .filter(c -> c.publicKey.equals(publicKey))
                .findFirst()
                .map(Credential::value);
        if (stored.isPresent() || !ATTESTED_TYPES.containsKey(scheme)) {
            return stored;
        }
        return Optional.of(Value.struct(Map.of(
                "id",
                Value.of(""),
                "user_id",
                Value.of(user.path("userId").asString()),
                "type",
                Value.of(ATTESTED_TYPES.get(scheme)),
                "public_key",
                Value.of(publicKey))));
    }

    /** Every credential of the user: what a hypothetical approval by them could be stamped with. */
    static List<Value> allCredentials(JsonNode user) {
        return credentials(user).stream().map(Credential::value).toList();
    }

    private record Credential(String publicKey, Value value) {}

    private static List<Credential> credentials(JsonNode user) {
        String userId = user.path("userId").asString();
        List<Credential> found = new ArrayList<>();
        for (JsonNode key : user.path("apiKeys")) {
            String publicKey = key.path("credential").path("publicKey").asString();
            found.add(new Credential(
                    publicKey,
                    Value.struct(Map.of(
                            "id",
                            Value.of(key.path("apiKeyId").asString()),
                            "user_id",
                            Value.of(userId),
                            "type",
                            Value.of(key.path("credential").path("type").asString()),
                            "public_key",
                            Value.of(publicKey)))));
        }
        for (JsonNode passkey : user.path("authenticators")) {
            String publicKey = passkey.path("credential").path("publicKey").asString();
            found.add(new Credential(
                    publicKey,
                    Value.struct(Map.of(
                            "id",
                            Value.of(passkey.path("authenticatorId").asString()),
                            "user_id",
                            Value.of(userId),
                            "type",
                            Value.of(passkey.path("credential").path("type").asString()),
                            "credential_id",
                            Value.of(passkey.path("credentialId").asString()),
                            "public_key",
                            Value.of(publicKey)))));
        }
        return found;
    }
}
