package dev.keyhaven.server.custody;

import java.util.Base64;

/**
 * A secret sealed under the KEK: {@code version ‖ nonce ‖ ciphertext ‖ tag}, stored as base64 text (portable across
 * both stores). It is ciphertext, so it may travel through repositories; it opens only for the organization and
 * resource it was sealed for.
 */
public record SealedSecret(String base64) {

    public SealedSecret {
        if (base64 == null || base64.isEmpty()) {
            throw new IllegalArgumentException("a sealed secret cannot be empty");
        }
    }

    static SealedSecret of(byte[] bytes) {
        return new SealedSecret(Base64.getEncoder().encodeToString(bytes));
    }

    byte[] bytes() {
        return Base64.getDecoder().decode(base64);
    }

    @Override
    public String toString() {
        return "SealedSecret[" + base64.length() + " base64 chars]";
    }
}
