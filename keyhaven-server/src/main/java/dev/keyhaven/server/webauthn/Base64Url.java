package dev.keyhaven.server.webauthn;

import java.util.Base64;

/**
 * Base64url as WebAuthn clients send it. Decoding is lenient, because the clients disagree: browsers emit base64url
 * without padding, the React Native stamper converts from standard base64, and Turnkey's own specification calls some
 * of these fields "base64". Encoding is always base64url without padding, the form credential ids are stored in.
 */
final class Base64Url {
    private static final Base64.Encoder ENCODER = Base64.getUrlEncoder().withoutPadding();

    private Base64Url() {}

    /**
     * Decodes base64url or standard base64, with or without padding.
     *
     * @throws IllegalArgumentException when {@code text} is neither
     */
    static byte[] decode(String text) {
        String urlSafe = text.strip().replace('+', '-').replace('/', '_');
        int end = urlSafe.length();
        while (end > 0 && urlSafe.charAt(end - 1) == '=') {
            end--;
        }
        return Base64.getUrlDecoder().decode(urlSafe.substring(0, end));
    }

    static String encode(byte[] bytes) {
        return ENCODER.encodeToString(bytes);
    }
}
