package dev.keyhaven.server.user;

/**
 * What a verified registration (attestation) tells about a new passkey.
 *
 * @param credentialId base64url without padding
 * @param publicKey the public key as the API shows it: compressed SEC1 hex for EC2 keys, raw hex for OKP keys
 * @param publicKeyCose the COSE public key, hex (what assertions are verified with)
 * @param attestationType the attestation statement format ({@code none}, {@code packed}, …)
 * @param rpId the relying-party id the authenticator data was made for
 */
public record RegisteredPasskey(
        String credentialId,
        String publicKey,
        String publicKeyCose,
        String aaguid,
        String attestationType,
        long signCount,
        String rpId) {}
