package dev.keyhaven.server.auth;

import dev.keyhaven.server.api.Caller;
import java.util.Optional;

/**
 * A stamp whose signature over the request body checked out. {@code credentialKey} is what identifies the
 * credential in storage: the canonical (lowercase, compressed) public key for API keys, the base64url credential id
 * (no padding) for passkeys, and for attested stamps the identity the attestation proves (the OIDC identity's key,
 * or the verified email (lowercase) or phone number). Only API-key stamps name a {@link StampScheme}: a passkey's
 * algorithm is fixed by the key registered with it, so there is nothing for the caller to choose and nothing to check
 * against the stored type.
 *
 * @param apiKeyScheme the {@code X-Stamp} scheme; present exactly when {@code kind} is {@link Kind#API_KEY}
 * @param issuedFor the organization an OTP verification token was issued for: the caller must belong to it or to one
 *        of its sub-organizations
 */
public record VerifiedStamp(
        Kind kind,
        String credentialKey,
        Optional<StampScheme> apiKeyScheme,
        Caller.StampRecord record,
        Optional<String> issuedFor) {

    public VerifiedStamp {
        if ((kind == Kind.API_KEY) != apiKeyScheme.isPresent()) {
            throw new IllegalArgumentException("an API-key stamp, and only an API-key stamp, has an API-key scheme");
        }
    }

    /** A verified {@code X-Stamp}. */
    public static VerifiedStamp apiKey(StampScheme scheme, String canonicalPublicKey, Caller.StampRecord record) {
        return new VerifiedStamp(Kind.API_KEY, canonicalPublicKey, Optional.of(scheme), record, Optional.empty());
    }

    /** A verified {@code X-Stamp-WebAuthn}, identified by the credential id (base64url without padding). */
    public static VerifiedStamp passkey(String credentialId, Caller.StampRecord record) {
        return new VerifiedStamp(Kind.WEBAUTHN, credentialId, Optional.empty(), record, Optional.empty());
    }

    /** A verified {@code X-Stamp-Attested}, identified by the identity its attestation proves. */
    public static VerifiedStamp attested(
            Kind kind, String identity, Caller.StampRecord record, Optional<String> issuedFor) {
        return new VerifiedStamp(kind, identity, Optional.empty(), record, issuedFor);
    }

    /** Which family of credentials signed. */
    public enum Kind {
        API_KEY,
        WEBAUTHN,
        /** An attested key whose OIDC token proves an OAuth provider's identity. */
        OIDC,
        /** An attested key whose OTP verification token proves an email address. */
        OTP_EMAIL,
        /** An attested key whose OTP verification token proves a phone number. */
        OTP_SMS
    }
}
