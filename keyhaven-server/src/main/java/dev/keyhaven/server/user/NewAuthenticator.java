package dev.keyhaven.server.user;

import dev.keyhaven.server.api.Params;
import java.util.List;

/** A validated {@code v1AuthenticatorParamsV2} whose attestation has been verified. */
public record NewAuthenticator(String name, RegisteredPasskey passkey, List<AuthenticatorTransport> transports) {

    public static NewAuthenticator read(Params p, AttestationVerifier verifier) {
        String name = p.requiredString("authenticatorName");
        String challenge = p.requiredString("challenge");
        Params attestation = p.requiredObject("attestation");
        String credentialId = attestation.requiredString("credentialId");
        String clientDataJson = attestation.requiredString("clientDataJson");
        String attestationObject = attestation.requiredString("attestationObject");
        List<AuthenticatorTransport> transports = attestation.requiredEnums("transports", AuthenticatorTransport.class);
        RegisteredPasskey passkey =
                verifier.verify(challenge, credentialId, clientDataJson, attestationObject, attestation.path());
        return new NewAuthenticator(name, passkey, transports);
    }

    /**
     * Reads a {@code v1AuthenticatorParams}, what create_users V1 and create_authenticators V1 carry: the browser's
     * raw credential ({@code id}, {@code type}, {@code rawId}, {@code response{clientDataJson, attestationObject,
     * transports?}}) instead of V2's flattened attestation, and a {@code userId} that V2 dropped. That one is not
     * read: the operation names the user, and create_users V1 clients had no id to put there yet.
     */
    public static NewAuthenticator readV1(Params p, AttestationVerifier verifier) {
        String name = p.requiredString("authenticatorName");
        String challenge = p.requiredString("challenge");
        Params credential = p.requiredObject("attestation");
        String credentialId = credential.requiredString("id");
        Params response = credential.requiredObject("response");
        String clientDataJson = response.requiredString("clientDataJson");
        String attestationObject = response.requiredString("attestationObject");
        List<AuthenticatorTransport> transports = response.optionalEnums("transports", AuthenticatorTransport.class);
        RegisteredPasskey passkey =
                verifier.verify(challenge, credentialId, clientDataJson, attestationObject, response.path());
        return new NewAuthenticator(name, passkey, transports);
    }
}
