package dev.keyhaven.server.webauthn;

import dev.keyhaven.crypto.Digests;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;

/**
 * The WebAuthn challenge of an {@code X-Stamp-WebAuthn} request. The official stampers
 * ({@code @turnkey/webauthn-stamper}, {@code @turnkey/http} {@code getWebAuthnAssertion}, the React Native stamper)
 * hash the exact body with SHA-256, hex-encode the digest in lowercase and hand the ASCII bytes of those 64 characters
 * to the authenticator as the challenge, so {@code clientDataJSON.challenge} is base64url of that text. Binding the
 * assertion to the body this way is what makes a passkey stamp a signature over the request.
 */
final class StampChallenge {
    private static final HexFormat HEX = HexFormat.of();

    private StampChallenge() {}

    /** The challenge bytes for {@code body}: ASCII of lowercase hex SHA-256. */
    static byte[] of(byte[] body) {
        return HEX.formatHex(Digests.sha256(body)).getBytes(StandardCharsets.US_ASCII);
    }
}
