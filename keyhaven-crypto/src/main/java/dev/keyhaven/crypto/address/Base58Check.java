package dev.keyhaven.crypto.address;

import dev.keyhaven.crypto.Digests;
import java.security.MessageDigest;
import java.util.Arrays;

/** Base58 with a 4-byte double-SHA-256 checksum appended, as Bitcoin, Dogecoin, Tron and the XRP Ledger use it. */
public final class Base58Check {
    private Base58Check() {}

    /** {@code payload} already starts with its version byte(s). */
    static String encode(Base58 alphabet, byte[] payload) {
        byte[] checksum = Digests.sha256d(payload);
        byte[] data = Arrays.copyOf(payload, payload.length + 4);
        System.arraycopy(checksum, 0, data, payload.length, 4);
        return alphabet.encode(data);
    }

    /** Version byte followed by the body; the common case of {@link #encode(Base58, byte[])}. */
    public static String encode(Base58 alphabet, int version, byte[] body) {
        byte[] payload = new byte[1 + body.length];
        payload[0] = (byte) version;
        System.arraycopy(body, 0, payload, 1, body.length);
        return encode(alphabet, payload);
    }

    /**
     * The payload (version bytes included) of a Base58Check string.
     *
     * @throws IllegalArgumentException on a bad character, a string too short to hold a checksum or a wrong checksum
     */
    static byte[] decode(Base58 alphabet, String text) {
        byte[] data = alphabet.decode(text);
        if (data.length < 5) {
            throw new IllegalArgumentException("base58check string is too short");
        }
        byte[] payload = Arrays.copyOf(data, data.length - 4);
        byte[] expected = Arrays.copyOf(Digests.sha256d(payload), 4);
        if (!MessageDigest.isEqual(expected, Arrays.copyOfRange(data, payload.length, data.length))) {
            throw new IllegalArgumentException("base58check checksum does not match");
        }
        return payload;
    }
}
