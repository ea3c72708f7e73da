package dev.keyhaven.crypto;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import org.bouncycastle.crypto.Digest;
import org.bouncycastle.crypto.digests.Blake2bDigest;
import org.bouncycastle.crypto.digests.KeccakDigest;
import org.bouncycastle.crypto.digests.RIPEMD160Digest;

/**
 * Hash functions. SHA-256 and SHA3-256 come from the JDK (hardware intrinsics); Keccak-256, BLAKE2b and RIPEMD-160,
 * which the JDK lacks, from BouncyCastle.
 */
public final class Digests {
    private Digests() {}

    public static byte[] sha256(byte[] data) {
        return jdk("SHA-256", data);
    }

    /** SHA-256 applied twice, Bitcoin's checksum and transaction hash. */
    public static byte[] sha256d(byte[] data) {
        return sha256(sha256(data));
    }

    /** FIPS 202 SHA3-256 (Aptos authentication keys); not Ethereum's Keccak-256. */
    public static byte[] sha3_256(byte[] data) {
        return jdk("SHA3-256", data);
    }

    /** Keccak-256 as used by Ethereum; not the same function as the JDK's SHA3-256 (the padding differs). */
    public static byte[] keccak256(byte[] data) {
        return bc(new KeccakDigest(256), data);
    }

    /** RIPEMD-160 of SHA-256, Bitcoin's key and script hash. */
    public static byte[] hash160(byte[] data) {
        return bc(new RIPEMD160Digest(), sha256(data));
    }

    /**
     * BLAKE2b with a 32-byte output (Sui). The output length is part of BLAKE2b's parameter block, so this is not a
     * truncated BLAKE2b-512.
     */
    public static byte[] blake2b256(byte[] data) {
        return bc(new Blake2bDigest(256), data);
    }

    /** BIP-340 tagged hash: SHA-256(SHA-256(tag) ‖ SHA-256(tag) ‖ message), with the tag in UTF-8. */
    public static byte[] taggedHash(String tag, byte[] message) {
        byte[] tagHash = sha256(tag.getBytes(StandardCharsets.UTF_8));
        MessageDigest digest = jdk("SHA-256");
        digest.update(tagHash);
        digest.update(tagHash);
        return digest.digest(message);
    }

    private static byte[] jdk(String algorithm, byte[] data) {
        return jdk(algorithm).digest(data);
    }

    private static MessageDigest jdk(String algorithm) {
        try {
            return MessageDigest.getInstance(algorithm);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK since 9 has " + algorithm, e);
        }
    }

    private static byte[] bc(Digest digest, byte[] data) {
        digest.update(data, 0, data.length);
        byte[] out = new byte[digest.getDigestSize()];
        digest.doFinal(out, 0);
        return out;
    }
}
