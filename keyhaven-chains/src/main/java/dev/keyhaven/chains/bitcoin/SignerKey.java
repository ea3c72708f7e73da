package dev.keyhaven.chains.bitcoin;

import dev.keyhaven.crypto.Digests;
import dev.keyhaven.crypto.EcCurve;
import dev.keyhaven.crypto.address.Taproot;
import java.util.Arrays;
import java.util.Objects;

/**
 * The compressed secp256k1 key of {@code signWith} and the output scripts that pay it: P2PKH and P2WPKH of its
 * hash, P2SH-P2WPKH (to recognise, and refuse, the wrapped form), and the BIP-86 P2TR output of its x coordinate,
 * tweaked with keyhaven-crypto's {@link Taproot} (BouncyCastle) rather than bitcoin-kmp's native secp256k1.
 */
final class SignerKey {
    private final byte[] publicKey;
    private final byte[] xOnly;
    private final byte[] p2pkh;
    private final byte[] p2wpkh;
    private final byte[] p2shP2wpkh;
    private final byte[] p2tr;

    private SignerKey(byte[] publicKey) {
        this.publicKey = publicKey;
        this.xOnly = Arrays.copyOfRange(publicKey, 1, 33);
        byte[] keyHash = Digests.hash160(publicKey);
        this.p2pkh = Scripts.p2pkh(keyHash);
        this.p2wpkh = Scripts.p2wpkh(keyHash);
        this.p2shP2wpkh = Scripts.p2sh(p2wpkh);
        this.p2tr = Scripts.p2tr(Taproot.outputKey(xOnly));
    }

    /**
     * @throws IllegalArgumentException when the key is not 33 bytes of a compressed point on secp256k1
     */
    static SignerKey of(byte[] publicKey33) {
        Objects.requireNonNull(publicKey33, "publicKey33");
        if (publicKey33.length != 33) {
            throw new IllegalArgumentException("the key must be a 33-byte compressed secp256k1 public key");
        }
        EcCurve.SECP256K1.decodePoint(publicKey33);
        return new SignerKey(publicKey33.clone());
    }

    byte[] publicKey() {
        return publicKey.clone();
    }

    boolean isXOnly(byte[] key32) {
        return Arrays.equals(xOnly, key32);
    }

    boolean isP2pkh(byte[] script) {
        return Arrays.equals(p2pkh, script);
    }

    boolean isP2wpkh(byte[] script) {
        return Arrays.equals(p2wpkh, script);
    }

    boolean isP2shP2wpkh(byte[] script) {
        return Arrays.equals(p2shP2wpkh, script);
    }

    boolean isP2tr(byte[] script) {
        return Arrays.equals(p2tr, script);
    }

    /** BIP-143's script code for the key's P2WPKH input: the P2PKH script of the same hash. */
    byte[] p2wpkhScriptCode() {
        return p2pkh.clone();
    }
}
