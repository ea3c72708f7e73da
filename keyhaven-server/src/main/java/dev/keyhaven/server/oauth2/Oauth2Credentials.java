package dev.keyhaven.server.oauth2;

import dev.keyhaven.server.api.ApiException;
import dev.keyhaven.server.api.ErrorCode;
import dev.keyhaven.server.tx.Tx;

/** Lookups that answer Turnkey's {@code OAUTH2_CREDENTIAL_NOT_FOUND} (404) when there is nothing to find. */
final class Oauth2Credentials {
    private Oauth2Credentials() {}

    static Oauth2Credential require(
            Oauth2CredentialRepository credentials, Tx tx, String organizationId, String credentialId) {
        return credentials
                .find(tx, organizationId, credentialId)
                .orElseThrow(() -> notFound("no OAuth 2.0 credential found with id " + credentialId));
    }

    static ApiException notFound(String message) {
        return new ApiException(ErrorCode.OAUTH2_CREDENTIAL_NOT_FOUND, message);
    }
}
