package dev.keyhaven.crypto.address;

import dev.keyhaven.crypto.Digests;
import dev.keyhaven.crypto.KeyCurve;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HexFormat;

/** {@code 0x} + EIP-55 checksummed hex of the last 20 bytes of Keccak-256(X ‖ Y); Turnkey returns the checksummed form. */
final class EthereumEncoder implements AddressEncoder {

    @Override
    public String encode(KeyCurve curve, byte[] publicKey) {
        byte[] xy = Arrays.copyOfRange(PublicKeys.uncompressed(curve, publicKey), 1, 65);
        byte[] account = Arrays.copyOfRange(Digests.keccak256(xy), 12, 32);
        return "0x" + checksum(HexFormat.of().formatHex(account));
    }

    /**
     * EIP-55: a letter is uppercased when the matching nibble of Keccak-256 of the lowercase hex (as ASCII) is 8 or
     * more.
     */
    static String checksum(String lowercaseHex) {
        byte[] hash = Digests.keccak256(lowercaseHex.getBytes(StandardCharsets.US_ASCII));
        char[] out = lowercaseHex.toCharArray();
        for (int i = 0; i < out.length; i++) {
            int nibble = (hash[i / 2] >>> (i % 2 == 0 ? 4 : 0)) & 0xf;
            if (nibble >= 8) {
                out[i] = Character.toUpperCase(out[i]);
            }
        }
        return new String(out);
    }
}
