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
}
