package dev.keyhaven.server.oidc;

import java.time.Instant;
import java.util.Optional;

/**
 * What a verified ID token proves: who ({@code iss}, {@code sub}) signed in to which client ({@code aud}, the one of
 * the token's audiences the issuer accepts), until when, and the token's fingerprint (SHA-256 hex of the compact
 * JWS) for remembering it was used — never the token itself; and the {@code email} claim when the token says the
 * issuer verified it ({@code email_verified} true), which the auth proxy's account lookup accepts as proof of it.
 */
public record VerifiedIdToken(
        String issuer,
        String subject,
        String audience,
        Instant expiresAt,
        String fingerprint,
        Optional<String> verifiedEmail) {}
