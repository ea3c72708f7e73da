package dev.keyhaven.crypto.hd;

import java.security.SecureRandom;

/** A "random" source that hands out given bytes, so generation can be checked against published entropy. */
final class FixedRandom extends SecureRandom {
    private final byte[] bytes;
    private int used;

    FixedRandom(byte[] bytes) {
        this.bytes = bytes.clone();
    }

    @Override
    public void nextBytes(byte[] out) {
        if (used + out.length > bytes.length) {
            throw new IllegalStateException("asked for more bytes than the test supplied");
        }
        System.arraycopy(bytes, used, out, 0, out.length);
        used += out.length;
    }

    int used() {
        return used;
    }
}
