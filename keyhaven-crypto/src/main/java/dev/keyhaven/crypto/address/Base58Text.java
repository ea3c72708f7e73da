package dev.keyhaven.crypto.address;

/** Bitcoin-alphabet Base58Check for callers outside address encoding (Turnkey's credential bundles). */
public final class Base58Text {
    private Base58Text() {
    }

    /** {@code payload} followed by its 4-byte double-SHA-256 checksum, in Base58. */
    public static String encodeCheck(byte[] payload) {
        return Base58Check.encode(Base58.BITCOIN, payload);
    }

    /**
     * The payload of a Base58Check string.
     *
     * @throws IllegalArgumentException on a bad character, a too short string or a wrong checksum
     */
    public static byte[] decodeCheck(String text) {
        return Base58Check.decode(Base58.BITCOIN, text);
    }
}
