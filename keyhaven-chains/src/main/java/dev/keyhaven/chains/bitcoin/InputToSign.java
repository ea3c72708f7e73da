package dev.keyhaven.chains.bitcoin;

import java.util.Arrays;
import java.util.HexFormat;
import java.util.Objects;

/**
 * One input the key spends and the 32 bytes its signature is made over.
 *
 * @param index the input's position in the transaction
 * @param scheme how custody signs it
 * @param sighash the legacy or BIP-143 SIGHASH_ALL hash (ECDSA), or the BIP-341 SIGHASH_DEFAULT key-path hash
 *     (TAPROOT_KEY_PATH), as the bytes to sign
 */
public record InputToSign(int index, Scheme scheme, byte[] sighash) {

    /** The signature an input takes. */
    public enum Scheme {
        /** ECDSA (RFC 6979, low-S) with the key itself; goes into partial_sigs as DER with SIGHASH_ALL appended. */
        ECDSA,
        /** BIP-340 Schnorr with the key's BIP-86 tweak; goes into tap_key_sig as 64 bytes (SIGHASH_DEFAULT). */
        TAPROOT_KEY_PATH
    }

    public InputToSign {
        Objects.requireNonNull(scheme, "scheme");
        Objects.requireNonNull(sighash, "sighash");
        if (sighash.length != 32) {
            throw new IllegalArgumentException("a sighash is 32 bytes");
        }
        sighash = sighash.clone();
    }

    @Override
    public byte[] sighash() {
        return sighash.clone();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof InputToSign other
                && index == other.index
                && scheme == other.scheme
                && Arrays.equals(sighash, other.sighash);
    }

    @Override
    public int hashCode() {
        return Objects.hash(index, scheme, Arrays.hashCode(sighash));
    }

    @Override
    public String toString() {
        return "InputToSign[index=" + index + ", scheme=" + scheme + ", sighash="
                + HexFormat.of().formatHex(sighash) + "]";
    }
}
