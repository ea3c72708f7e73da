package dev.keyhaven.server.custody;

import dev.keyhaven.crypto.KeyCurve;
import dev.keyhaven.crypto.SecretBytes;
import java.security.SecureRandom;
import java.util.HexFormat;

/**
 * The key that signs app proofs: created when the server starts and never written anywhere, so every start has a new
 * one (its boot proof binds it to the long-term {@link ServerIdentity}). Like Turnkey's enclave key it is a pair of
 * P-256 keys, an encryption key and a signing key, published as the 130-byte concatenation of their uncompressed
 * public keys; only the signing half is used. Thread-safe.
 */
public final class EphemeralKey implements AutoCloseable {
    private final SecretBytes encryptionKey;
    private final SecretBytes signingKey;
    private final byte[] publicKey;

    private EphemeralKey(SecretBytes encryptionKey, SecretBytes signingKey) {
        this.encryptionKey = encryptionKey;
        this.signingKey = signingKey;
        byte[] encryptionPublic = P256Signatures.uncompressedPublicKey(encryptionKey);
        byte[] signingPublic = P256Signatures.uncompressedPublicKey(signingKey);
        this.publicKey = new byte[encryptionPublic.length + signingPublic.length];
        System.arraycopy(encryptionPublic, 0, publicKey, 0, encryptionPublic.length);
        System.arraycopy(signingPublic, 0, publicKey, encryptionPublic.length, signingPublic.length);
    }

    public static EphemeralKey generate(SecureRandom random) {
        return new EphemeralKey(KeyCurve.P256.generatePrivateKey(random), KeyCurve.P256.generatePrivateKey(random));
    }

    /** Hex of the 130 bytes: uncompressed encryption public key ‖ uncompressed signing public key. */
    public String publicKeyHex() {
        return HexFormat.of().formatHex(publicKey);
    }

    /** Raw r ‖ s (64 bytes) of ECDSA-P256 with the signing key over SHA-256 of {@code message}. */
    public byte[] sign(byte[] message) {
        return P256Signatures.signSha256(signingKey, message);
    }

    @Override
    public void close() {
        encryptionKey.close();
        signingKey.close();
    }

    @Override
    public String toString() {
        return "EphemeralKey[" + publicKeyHex() + "]";
    }
}
