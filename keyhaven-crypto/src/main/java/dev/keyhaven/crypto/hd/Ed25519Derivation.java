package dev.keyhaven.crypto.hd;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * SLIP-0010 for Ed25519: the key is I_L itself (any 32 bytes are a valid RFC 8032 private key, so nothing is ever
 * retried) and every step is hardened, so derivation is HMAC only.
 */
final class Ed25519Derivation implements Derivation {
    private static final String MASTER_KEY_LABEL = "ed25519 seed";

    @Override
    public ExtendedKey master(HmacSha512 hmac, byte[] seed) {
        byte[] i = hmac.compute(MASTER_KEY_LABEL.getBytes(StandardCharsets.US_ASCII), seed);
        ExtendedKey master = ExtendedKey.split(i);
        Arrays.fill(i, (byte) 0);
        return master;
    }

    @Override
    public ExtendedKey child(HmacSha512 hmac, ExtendedKey parent, int index) {
        byte[] data = new byte[37];
        System.arraycopy(parent.key(), 0, data, 1, ExtendedKey.KEY_BYTES);
        Derivation.putIndex(data, Ed25519IndexPolicy.effectiveIndex(index));
        byte[] i = hmac.compute(parent.chainCode(), data);
        ExtendedKey child = ExtendedKey.split(i);
        Arrays.fill(i, (byte) 0);
        Arrays.fill(data, (byte) 0);
        return child;
    }
}
