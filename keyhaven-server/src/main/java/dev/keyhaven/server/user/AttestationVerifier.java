package dev.keyhaven.server.user;

/**
 * Verifies a WebAuthn registration: the client data (type {@code webauthn.create}, the given challenge, an allowed
 * origin) and the attestation object (format, statement, authenticator data), and extracts the credential.
 */
@FunctionalInterface
public interface AttestationVerifier {

    /**
     * @param field the JSON path of the attestation, for error messages
     * @throws dev.keyhaven.server.api.ApiException (400) when the registration does not verify
     */
    RegisteredPasskey verify(
            String challenge, String credentialId, String clientDataJson, String attestationObject, String field);
}
