package dev.keyhaven.server.custody;

import dev.keyhaven.crypto.KeyCurve;
import dev.keyhaven.crypto.SecretBytes;
import dev.keyhaven.crypto.hd.DerivationPath;
import dev.keyhaven.crypto.hd.HdKeys;

/**
 * An opened wallet: its mnemonic, sealed for storage, and its BIP-39 seed, computed once (PBKDF2 with 2048 rounds
 * is the expensive part) and wiped on {@link #close()}. Each account key is derived here exactly once, when the
 * account is created, and leaves sealed; signing later opens that sealed key and never re-derives.
 */
public final class WalletSeed implements AutoCloseable {
    private final OwnerSealer sealer;
    private final SealedSecret sealedMnemonic;
    private final SecretBytes seed;

    /**
     * Takes ownership of {@code seed}, the seed of the mnemonic that {@code sealedMnemonic} holds; accounts are sealed
     * with {@code sealer}, the wallet's organization's.
     */
    WalletSeed(OwnerSealer sealer, SealedSecret sealedMnemonic, SecretBytes seed) {
        this.sealer = sealer;
        this.sealedMnemonic = sealedMnemonic;
        this.seed = seed;
    }

    /** The mnemonic sealed for this wallet, as stored with it. */
    public SealedSecret sealedMnemonic() {
        return sealedMnemonic;
    }

    /** Derives the key of one account and seals it for {@code accountId}. */
    public DerivedKey derive(KeyCurve curve, DerivationPath path, String accountId) {
        try (SecretBytes key = HdKeys.derivePrivateKey(curve, seed, path)) {
            return new DerivedKey(curve.publicKey(key), sealer.seal(SealPurpose.WALLET_ACCOUNT_KEY, accountId, key));
        }
    }

    @Override
    public void close() {
        seed.close();
    }

    @Override
    public String toString() {
        return "WalletSeed[redacted]";
    }
}
