package dev.keyhaven.server.webauthn;

import dev.keyhaven.server.api.ApiException;
import dev.keyhaven.server.api.ErrorCode;
import dev.keyhaven.server.auth.CallerDirectory;
import dev.keyhaven.server.auth.VerifiedStamp;
import dev.keyhaven.server.auth.WebAuthnStampVerifier;
import dev.keyhaven.server.tx.Transactor;
import dev.keyhaven.server.user.AttestationVerifier;
import dev.keyhaven.server.user.RegisteredPasskey;
import tools.jackson.databind.ObjectMapper;

/** Passkey registration and assertion verification. */
public final class WebAuthn implements AttestationVerifier, WebAuthnStampVerifier {
    private final Transactor transactor;
    private final CallerDirectory directory;
    private final ObjectMapper json;

    public WebAuthn(Transactor transactor, CallerDirectory directory, ObjectMapper json) {
        this.transactor = transactor;
        this.directory = directory;
        this.json = json;
    }

    @Override
    public RegisteredPasskey verify(String challenge, String credentialId, String clientDataJson,
            String attestationObject, String field) {
        throw new ApiException(ErrorCode.UNIMPLEMENTED, "passkey registration is pending", field);
    }

    @Override
    public VerifiedStamp verify(String headerValue, byte[] body) {
        throw new ApiException(ErrorCode.CREDENTIAL_NOT_FOUND, "passkey stamps are pending");
    }
}
