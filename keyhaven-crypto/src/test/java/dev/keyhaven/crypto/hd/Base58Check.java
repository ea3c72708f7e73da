package dev.keyhaven.crypto.hd;

import dev.keyhaven.crypto.Digests;
import java.math.BigInteger;
import java.util.Arrays;

/** Base58 (Bitcoin alphabet) decoding, just enough to read the keys the vector files print. */
final class Base58Check {
    private static final String ALPHABET = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";

    private Base58Check() {}

    /** The payload of a Base58Check string, its 4-byte double-SHA-256 checksum verified and removed. */
    static byte[] decode(String text) {
        byte[] raw = decodePlain(text);
        byte[] payload = Arrays.copyOf(raw, raw.length - 4);
        byte[] checksum = Arrays.copyOf(Digests.sha256(Digests.sha256(payload)), 4);
        if (!Arrays.equals(checksum, Arrays.copyOfRange(raw, raw.length - 4, raw.length))) {
            throw new IllegalArgumentException("bad Base58Check checksum");
        }
        return payload;
    }

    /** Plain Base58, as Solana prints public keys. */
    static byte[] decodePlain(String text) {
        BigInteger value = BigInteger.ZERO;
        int leadingZeros = 0;
        for (int i = 0; i < text.length(); i++) {
            int digit = ALPHABET.indexOf(text.charAt(i));
            if (digit < 0) {
                throw new IllegalArgumentException("not Base58: " + text);
            }
            if (digit == 0 && value.signum() == 0) {
                leadingZeros++;
            }
            value = value.multiply(BigInteger.valueOf(58)).add(BigInteger.valueOf(digit));
        }
        byte[] magnitude = value.signum() == 0 ? new byte[0] : value.toByteArray();
        if (magnitude.length > 0 && magnitude[0] == 0) {
            magnitude = Arrays.copyOfRange(magnitude, 1, magnitude.length);
        }
        byte[] out = new byte[leadingZeros + magnitude.length];
        System.arraycopy(magnitude, 0, out, leadingZeros, magnitude.length);
        return out;
    }
}
