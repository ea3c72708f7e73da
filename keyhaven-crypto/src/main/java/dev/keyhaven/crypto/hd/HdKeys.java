package dev.keyhaven.crypto.hd;

import dev.keyhaven.crypto.EcCurve;
import dev.keyhaven.crypto.KeyCurve;
import dev.keyhaven.crypto.SecretBytes;
import dev.keyhaven.crypto.SecretKeyAccess;
import java.util.Objects;

/**
 * Derives private keys from a BIP-39 seed: BIP-32 for secp256k1, SLIP-0010 "nist256p1" for P-256 and SLIP-0010
 * "ed25519" for Ed25519 (addresses.md §2.2). A full path costs one HMAC per hardened level plus one fixed-base point
 * multiplication per non-hardened ECDSA level, so derive an account's key once and keep it sealed.
 */
public final class HdKeys {
    /** The smallest and largest seeds BIP-32 allows: 128 to 512 bits. */
    private static final int MIN_SEED_BYTES = 16;

    private static final int MAX_SEED_BYTES = 64;

    private HdKeys() {}

    /**
     * The 32-byte private key at {@code path}: an ECDSA scalar for secp256k1 and P-256, an RFC 8032 private key for
     * Ed25519 (where every index counts as hardened, see {@link Ed25519IndexPolicy}). {@code seed} is not consumed;
     * the caller closes both it and the result.
     *
     * @throws IllegalArgumentException when the seed is not 16 to 64 bytes
     */
    public static SecretBytes derivePrivateKey(KeyCurve curve, SecretBytes seed, DerivationPath path) {
        try (ExtendedKey key = deriveExtended(curve, seed, path)) {
            return key.privateKey();
        }
    }

    /** The key and chain code at {@code path}; the chain code is visible here so tests can check it too. */
    static ExtendedKey deriveExtended(KeyCurve curve, SecretBytes seed, DerivationPath path) {
        Objects.requireNonNull(path, "path");
        if (seed.length() < MIN_SEED_BYTES || seed.length() > MAX_SEED_BYTES) {
            throw new IllegalArgumentException(
                    "seed must be " + MIN_SEED_BYTES + " to " + MAX_SEED_BYTES + " bytes, not " + seed.length());
        }
        Derivation derivation = derivation(curve);
        try (HmacSha512 hmac = new HmacSha512()) {
            ExtendedKey key = seed.apply(SecretKeyAccess.get(), bytes -> derivation.master(hmac, bytes));
            for (int index : path.indices()) {
                try (ExtendedKey parent = key) {
                    key = derivation.child(hmac, parent, index);
                }
            }
            return key;
        }
    }

    private static Derivation derivation(KeyCurve curve) {
        return switch (curve) {
            case SECP256K1 -> new EcdsaDerivation(EcCurve.SECP256K1, "Bitcoin seed");
            case P256 -> new EcdsaDerivation(EcCurve.P256, "Nist256p1 seed");
            case ED25519 -> new Ed25519Derivation();
        };
    }
}
