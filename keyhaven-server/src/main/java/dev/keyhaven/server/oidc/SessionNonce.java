package dev.keyhaven.server.oidc;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * The {@code nonce} an ID token must carry to open a session for a key: lowercase hex SHA-256 of the UTF-8 bytes of
 * the session public key's hex string exactly as the client sent it — what the official wallet kits compute.
 */
public final class SessionNonce {
    private SessionNonce() {}

    public static String of(String publicKeyAsSent) {
        return sha256Hex(publicKeyAsSent);
    }

    static String sha256Hex(String text) {
        try {
            return HexFormat.of()
                    .formatHex(MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
