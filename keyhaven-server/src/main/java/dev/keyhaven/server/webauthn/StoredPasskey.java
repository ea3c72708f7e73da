package dev.keyhaven.server.webauthn;

/**
 * What verifying a passkey stamp needs from a registration.
 *
 * @param credentialId base64url without padding
 * @param publicKey the API form of the public key (what votes record)
 * @param publicKeyCose the COSE public key, hex
 * @param rpId the relying-party id the passkey was registered for
 */
public record StoredPasskey(String credentialId, String publicKey, String publicKeyCose, String rpId) {}
