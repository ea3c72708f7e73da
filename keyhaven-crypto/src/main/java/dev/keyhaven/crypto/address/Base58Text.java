package dev.keyhaven.crypto.address;

/**
 * Bitcoin-alphabet Base58 and Base58Check for callers outside address encoding (Turnkey's credential bundles, Solana
 * keys and program ids). Decoding is quadratic in the text's length: callers bound it first.
 */
public final class Base58Text {
    private Base58Text() {}

    /** {@code data} in Base58, as Solana writes keys. */
    public static String encode(byte[] data) {
        return Base58.BITCOIN.encode(data);
    }

    /**
     * The bytes of a Base58 string.
     *
     * @throws IllegalArgumentException on a character outside the alphabet
     */
    public static byte[] decode(String text) {
        return Base58.BITCOIN.decode(text);
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
