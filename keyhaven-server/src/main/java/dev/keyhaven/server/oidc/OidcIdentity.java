package dev.keyhaven.server.oidc;

/**
 * The storage key of an OIDC identity: SHA-256 hex of the length-prefixed issuer, audience and subject, so one
 * indexed column finds the user an OAuth provider belongs to (and no choice of separator can make two identities
 * collide).
 */
public final class OidcIdentity {
    private OidcIdentity() {}

    public static String key(String issuer, String audience, String subject) {
        return SessionNonce.sha256Hex(
                issuer.length() + ":" + issuer + audience.length() + ":" + audience + subject.length() + ":" + subject);
    }
}
