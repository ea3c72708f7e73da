package dev.keyhaven.chains.bitcoin;

import dev.keyhaven.chains.bitcoin.InputToSign.Scheme;
import dev.keyhaven.crypto.EcCurve;
import java.io.IOException;
import java.math.BigInteger;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Objects;
import org.bouncycastle.crypto.signers.StandardDSAEncoding;

/**
 * A signature for one input, in the form the PSBT carries it.
 *
 * @param index the input's position in the transaction
 * @param scheme {@link Scheme#ECDSA} for partial_sigs, {@link Scheme#TAPROOT_KEY_PATH} for tap_key_sig
 * @param publicKey33 the compressed key partial_sigs is keyed by (ECDSA); empty for taproot, whose key is the output
 *     key of the input itself
 * @param value what the PSBT entry holds: DER(r, s) followed by the SIGHASH_ALL byte 0x01 (ECDSA, the form
 *     bitcoinjs's finalizer expects), or the 64-byte BIP-340 signature (taproot, SIGHASH_DEFAULT)
 */
public record InputSignature(int index, Scheme scheme, byte[] publicKey33, byte[] value) {
    private static final int SIGHASH_ALL = 0x01;

    public InputSignature {
        Objects.requireNonNull(scheme, "scheme");
        Objects.requireNonNull(publicKey33, "publicKey33");
        Objects.requireNonNull(value, "value");
        if (index < 0) {
            throw new IllegalArgumentException("input index must not be negative");
        }
        boolean ecdsa = scheme == Scheme.ECDSA;
        if (ecdsa ? publicKey33.length != 33 : publicKey33.length != 0) {
            throw new IllegalArgumentException(
                    ecdsa
                            ? "an ECDSA signature names its 33-byte compressed key"
                            : "a taproot signature names no key: it is checked against the input's output key");
        }
        if (ecdsa ? value.length < 9 || (value[value.length - 1] & 0xff) != SIGHASH_ALL : value.length != 64) {
            throw new IllegalArgumentException(
                    ecdsa
                            ? "an ECDSA signature is DER followed by SIGHASH_ALL (0x01)"
                            : "a taproot key-path signature is 64 bytes (SIGHASH_DEFAULT)");
        }
        publicKey33 = publicKey33.clone();
        value = value.clone();
    }

    /**
     * The partial_sigs entry for {@code publicKey33}: r and s (32 bytes each, big-endian, as custody's ECDSA
     * signature has them) DER-encoded, then SIGHASH_ALL.
     *
     * @throws IllegalArgumentException when r or s is not 32 bytes or not in [1, n-1]
     */
    public static InputSignature ecdsa(int index, byte[] publicKey33, byte[] r32, byte[] s32) {
        Objects.requireNonNull(r32, "r32");
        Objects.requireNonNull(s32, "s32");
        if (r32.length != 32 || s32.length != 32) {
            throw new IllegalArgumentException("r and s must be 32 bytes each");
        }
        BigInteger r = new BigInteger(1, r32);
        BigInteger s = new BigInteger(1, s32);
        if (r.signum() == 0 || s.signum() == 0) {
            throw new IllegalArgumentException("r and s must not be zero");
        }
        byte[] der;
        try {
            der = StandardDSAEncoding.INSTANCE.encode(EcCurve.SECP256K1.order(), r, s);
        } catch (IOException | IllegalArgumentException e) {
            throw new IllegalArgumentException("r and s must be below the order of secp256k1", e);
        }
        byte[] value = Arrays.copyOf(der, der.length + 1);
        value[der.length] = SIGHASH_ALL;
        return new InputSignature(index, Scheme.ECDSA, publicKey33, value);
    }

    /** The tap_key_sig entry: a 64-byte BIP-340 signature, which with SIGHASH_DEFAULT carries no sighash byte. */
    public static InputSignature taproot(int index, byte[] signature64) {
        return new InputSignature(index, Scheme.TAPROOT_KEY_PATH, new byte[0], signature64);
    }

    @Override
    public byte[] publicKey33() {
        return publicKey33.clone();
    }

    @Override
    public byte[] value() {
        return value.clone();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof InputSignature other
                && index == other.index
                && scheme == other.scheme
                && Arrays.equals(publicKey33, other.publicKey33)
                && Arrays.equals(value, other.value);
    }

    @Override
    public int hashCode() {
        return Objects.hash(index, scheme, Arrays.hashCode(publicKey33), Arrays.hashCode(value));
    }

    @Override
    public String toString() {
        HexFormat hex = HexFormat.of();
        return "InputSignature[index=" + index + ", scheme=" + scheme + ", publicKey33=" + hex.formatHex(publicKey33)
                + ", value=" + hex.formatHex(value) + "]";
    }
}
