package dev.keyhaven.server.oauth2;

import dev.keyhaven.server.api.Caller;
import dev.keyhaven.server.api.Params;
import dev.keyhaven.server.tx.Transactor;
import java.util.Map;

/** {@code get_oauth2_credential} and {@code list_oauth2_credentials}. */
public final class Oauth2CredentialQueries {
    private final Transactor transactor;
    private final Oauth2CredentialRepository credentials;

    public Oauth2CredentialQueries(Transactor transactor, Oauth2CredentialRepository credentials) {
        this.transactor = transactor;
        this.credentials = credentials;
    }

    /** {@code {organizationId, oauth2CredentialId}} → {@code {oauth2Credential}}. */
    public Map<String, Object> getOauth2Credential(Caller caller, Params body) {
        String id = body.requiredString("oauth2CredentialId");
        return Map.of(
                "oauth2Credential",
                Oauth2Views.credential(transactor.read(
                        tx -> Oauth2Credentials.require(credentials, tx, caller.organizationId(), id))));
    }

    /** {@code {organizationId}} → {@code {oauth2Credentials}}, in creation order. */
    public Map<String, Object> listOauth2Credentials(Caller caller, Params body) {
        return Map.of(
                "oauth2Credentials",
                transactor.read(tx -> credentials.list(tx, caller.organizationId())).stream()
                        .map(Oauth2Views::credential)
                        .toList());
    }
}
