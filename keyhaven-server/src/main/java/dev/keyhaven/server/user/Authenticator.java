package dev.keyhaven.server.user;

import java.time.Instant;
import java.util.List;

/**
 * A registered passkey.
 *
 * @param credentialId the WebAuthn credential id, base64url without padding
 * @param publicKey the public key as the API shows it (see {@link RegisteredPasskey#publicKey()})
 * @param publicKeyCose the credential's COSE public key, hex
 * @param rpId the relying-party id whose hash the authenticator data carried at registration
 */
public record Authenticator(
        String id,
        String organizationId,
        String userId,
        String name,
        String credentialId,
        String publicKey,
        String publicKeyCose,
        String aaguid,
        String attestationType,
        List<AuthenticatorTransport> transports,
        String model,
        long signCount,
        String rpId,
        Instant createdAt,
        Instant updatedAt) {

    public Authenticator {
        transports = List.copyOf(transports);
    }
}
