package dev.keyhaven.server.otp;

import java.security.SecureRandom;

/** Code generation: digits, or Crockford base32 (no I, L, O, U) for alphanumeric codes. */
final class OtpCodes {
    private static final String DIGITS = "0123456789";
    private static final String CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

    private OtpCodes() {}

    static String generate(SecureRandom random, int length, boolean alphanumeric) {
        String alphabet = alphanumeric ? CROCKFORD : DIGITS;
        StringBuilder code = new StringBuilder(length);
        for (int i = 0; i < length; i++) {
            code.append(alphabet.charAt(random.nextInt(alphabet.length())));
        }
        return code.toString();
    }

    /** What a typed code is compared as: trimmed, upper case (Crockford codes are case-insensitive). */
    static String normalise(String typed) {
        return typed.trim().toUpperCase(java.util.Locale.ROOT);
    }
}
