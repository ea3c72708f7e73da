package dev.keyhaven.server.custody;

import dev.keyhaven.crypto.Digests;
import dev.keyhaven.crypto.EcCurve;
import dev.keyhaven.crypto.KeyCurve;
import dev.keyhaven.crypto.SecretBytes;
import dev.keyhaven.crypto.sign.PayloadSigner;
import dev.keyhaven.crypto.sign.Signature;

/** P-256 helpers shared by the proof keys: public keys in uncompressed form, raw r‖s signatures over SHA-256. */
final class P256Signatures {
    private P256Signatures() {}

    /** The 65-byte uncompressed SEC1 public key of a P-256 private key. */
    static byte[] uncompressedPublicKey(SecretBytes privateKey) {
        return EcCurve.P256.decompress(KeyCurve.P256.publicKey(privateKey));
    }

    /** ECDSA-P256 over SHA-256 of {@code message} (RFC 6979, low-S) as the 64 raw bytes r ‖ s. */
    static byte[] signSha256(SecretBytes privateKey, byte[] message) {
        Signature signature = PayloadSigner.signDigest(KeyCurve.P256, privateKey, Digests.sha256(message));
        byte[] out = new byte[64];
        System.arraycopy(signature.r(), 0, out, 0, 32);
        System.arraycopy(signature.s(), 0, out, 32, 32);
        return out;
    }
}
