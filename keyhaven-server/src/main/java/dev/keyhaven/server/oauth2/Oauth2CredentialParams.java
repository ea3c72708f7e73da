package dev.keyhaven.server.oauth2;

import dev.keyhaven.policy.Value;
import dev.keyhaven.server.api.ApiException;
import dev.keyhaven.server.api.Params;
import dev.keyhaven.server.tx.Tx;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The fields {@code create_oauth2_credential} and {@code update_oauth2_credential} share, validated, and the rule
 * both enforce: one credential per organization, provider and client id (the auth proxy finds credentials by them).
 */
record Oauth2CredentialParams(
        Oauth2Provider provider,
        String clientId,
        String encryptedClientSecret,
        String clientIdField,
        String secretField) {
    static final int MAX_CLIENT_ID_LENGTH = 256;

    static Oauth2CredentialParams read(Params p) {
        Oauth2Provider provider = Oauth2Provider.read(p, "provider");
        String clientId = p.requiredString("clientId");
        if (clientId.isBlank() || clientId.length() > MAX_CLIENT_ID_LENGTH) {
            throw ApiException.badField(
                    p.pathOf("clientId"), "must be 1 to " + MAX_CLIENT_ID_LENGTH + " characters, not blank");
        }
        // The envelope itself is opened when the activity executes (custody checks it there, naming this field).
        return new Oauth2CredentialParams(
                provider,
                clientId,
                p.requiredString("encryptedClientSecret"),
                p.pathOf("clientId"),
                p.pathOf("encryptedClientSecret"));
    }

    /** {@code activity.params}: {@code provider}, {@code client_id} (never the secret). */
    Map<String, Value> policyParams() {
        Map<String, Value> params = new HashMap<>();
        params.put("provider", Value.of(provider.wireName()));
        params.put("client_id", Value.of(clientId));
        return params;
    }

    /** Refuses a second credential of the organization with this provider and client id ({@code except} aside). */
    void requireUnique(Oauth2CredentialRepository credentials, Tx tx, String organizationId, Optional<String> except) {
        Optional<Oauth2Credential> existing = credentials.findByClient(tx, organizationId, provider, clientId);
        if (existing.isPresent() && !existing.map(Oauth2Credential::id).equals(except)) {
            throw ApiException.badField(
                    clientIdField,
                    "already has an OAuth 2.0 credential for " + provider.wireName() + " in this organization ("
                            + existing.get().id() + ")");
        }
    }
}
