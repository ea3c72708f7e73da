package dev.keyhaven.server.auth;

import java.util.Optional;

/**
 * The authentication headers of a request, as the HTTP layer found them (header names are case-insensitive, so the
 * SDK's {@code X-Stamp-Webauthn} and the specification's {@code X-Stamp-WebAuthn} are the same header).
 */
public record StampHeaders(Optional<String> apiKey, Optional<String> webAuthn, Optional<String> attested) {
    public static final String API_KEY = "X-Stamp";
    public static final String WEBAUTHN = "X-Stamp-WebAuthn";
    public static final String ATTESTED = "X-Stamp-Attested";
}
