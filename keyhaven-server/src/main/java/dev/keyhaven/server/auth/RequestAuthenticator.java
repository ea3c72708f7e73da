package dev.keyhaven.server.auth;

import dev.keyhaven.server.api.ApiException;
import dev.keyhaven.server.api.ErrorCode;

/**
 * Verifies the one stamp a request carries over its exact body bytes. Exactly one of {@code X-Stamp},
 * {@code X-Stamp-WebAuthn} and {@code X-Stamp-Attested} must be present.
 */
public final class RequestAuthenticator {
    private final ApiKeyStampVerifier apiKeys;
    private final WebAuthnStampVerifier passkeys;
    private final AttestedStampVerifier attested;

    public RequestAuthenticator(
            ApiKeyStampVerifier apiKeys, WebAuthnStampVerifier passkeys, AttestedStampVerifier attested) {
        this.apiKeys = apiKeys;
        this.passkeys = passkeys;
        this.attested = attested;
    }

    public VerifiedStamp verify(StampHeaders headers, byte[] body) {
        int present = (headers.apiKey().isPresent() ? 1 : 0)
                + (headers.webAuthn().isPresent() ? 1 : 0)
                + (headers.attested().isPresent() ? 1 : 0);
        if (present == 0) {
            throw new ApiException(
                    ErrorCode.SIGNATURE_MISSING,
                    "cannot authenticate public API activity request "
                            + "without a stamp (X-Stamp/X-Stamp-Webauthn header)");
        }
        if (present > 1) {
            throw new ApiException(
                    ErrorCode.MALFORMED_STAMP,
                    "malformed activity stamp: a request carries exactly "
                            + "one of X-Stamp, X-Stamp-WebAuthn and X-Stamp-Attested");
        }
        if (headers.apiKey().isPresent()) {
            return apiKeys.verify(headers.apiKey().get(), body);
        }
        if (headers.webAuthn().isPresent()) {
            return passkeys.verify(headers.webAuthn().get(), body);
        }
        return attested.verify(headers.attested().get(), body);
    }
}
