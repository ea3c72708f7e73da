package dev.keyhaven.crypto;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import org.bouncycastle.crypto.digests.KeccakDigest;

/** Hash functions. SHA-256 comes from the JDK (hardware intrinsics); Keccak-256 is the pre-NIST variant Ethereum uses. */
public final class Digests {
    private Digests() {
    }

    public static byte[] sha256(byte[] data) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(data);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }

    /** Keccak-256 as used by Ethereum; not the same function as the JDK's SHA3-256 (the padding differs). */
    public static byte[] keccak256(byte[] data) {
        KeccakDigest digest = new KeccakDigest(256);
        digest.update(data, 0, data.length);
        byte[] out = new byte[32];
        digest.doFinal(out, 0);
        return out;
    }
}
