package dev.keyhaven.server.custody;

import dev.keyhaven.crypto.KeyCurve;
import dev.keyhaven.crypto.SecretBytes;
import dev.keyhaven.crypto.hd.Mnemonic;
import dev.keyhaven.crypto.sign.PayloadSigner;
import dev.keyhaven.crypto.sign.Signature;
import dev.keyhaven.server.tx.Tx;
import java.security.SecureRandom;

/**
 * The one door to key material: creates wallets and private keys, hands back only public keys and sealed blobs, and
 * signs with a {@link KeyHandle}, opening the sealed key for the duration of one signature.
 */
public final class Custody {
    /** The BIP-39 mnemonic lengths a new wallet may have. */
    public static final java.util.Set<Integer> MNEMONIC_WORD_COUNTS = Mnemonic.WORD_COUNTS;

    private final KeySealer sealer;
    private final SecureRandom random;

    public Custody(KeySealer sealer, SecureRandom random) {
        this.sealer = sealer;
        this.random = random;
    }

    /**
     * What makes the ECDSA signatures on secp256k1 (libsecp256k1 when installed, else BouncyCastle; they sign alike,
     * byte for byte), for the start-up log.
     *
     * @throws CustodyException when {@code KEYHAVEN_SECP256K1_LIBRARY} names a library that cannot be used: the
     *     server must not start on another than the one the operator chose
     */
    public static String secp256k1Implementation() {
        try {
            return PayloadSigner.secp256k1Implementation();
        } catch (IllegalStateException refused) {
            throw new CustodyException(refused.getMessage(), refused);
        }
    }

    /** A new wallet with a fresh mnemonic of {@code wordCount} words; the caller closes it. */
    public WalletSeed createWallet(Tx tx, String organizationId, String walletId, int wordCount) {
        OwnerSealer owner = sealer.sealerFor(tx, organizationId);
        try (Mnemonic mnemonic = Mnemonic.generate(wordCount, random);
                SecretBytes phrase = mnemonic.phrase()) {
            return new WalletSeed(owner, owner.seal(SealPurpose.WALLET_MNEMONIC, walletId, phrase), mnemonic.toSeed());
        }
    }

    /** Opens a stored wallet to derive more accounts; the caller closes it. */
    public WalletSeed openWallet(Tx tx, String organizationId, String walletId, SealedSecret sealedMnemonic) {
        OwnerSealer owner = sealer.sealerFor(tx, organizationId);
        try (SecretBytes phrase =
                        sealer.open(tx, SealPurpose.WALLET_MNEMONIC, organizationId, walletId, sealedMnemonic);
                Mnemonic mnemonic = Mnemonic.parse(phrase)) {
            return new WalletSeed(owner, sealedMnemonic, mnemonic.toSeed());
        }
    }

    /** A fresh random private key on {@code curve}, sealed for {@code privateKeyId}. */
    public DerivedKey createPrivateKey(Tx tx, String organizationId, String privateKeyId, KeyCurve curve) {
        return createKey(tx, curve, SealPurpose.PRIVATE_KEY, organizationId, privateKeyId);
    }

    /**
     * A fresh random key on {@code curve} for any purpose (a webhook signing key, …), sealed for {@code resourceId} of
     * {@code organizationId}; it signs later through a {@link KeyHandle} naming the same purpose, organization and
     * resource.
     */
    public DerivedKey createKey(Tx tx, KeyCurve curve, SealPurpose purpose, String organizationId, String resourceId) {
        try (SecretBytes key = curve.generatePrivateKey(random)) {
            return new DerivedKey(curve.publicKey(key), sealer.seal(tx, purpose, organizationId, resourceId, key));
        }
    }

    /** ECDSA over a 32-byte digest with the recovery id (secp256k1, P-256). */
    public Signature signDigest(KeyHandle handle, byte[] digest) {
        try (SecretBytes key = open(handle)) {
            return PayloadSigner.signDigest(handle.curve(), key, digest);
        }
    }

    /**
     * A BIP-340 Schnorr signature over a BIP-341 sighash by the key's BIP-86 tweaked form (a Taproot key-path spend
     * with no script tree), with fresh auxiliary randomness as BIP-340 recommends. 64 bytes.
     */
    public byte[] signTaprootKeyPath(KeyHandle handle, byte[] sighash) {
        byte[] auxiliary = new byte[32];
        random.nextBytes(auxiliary);
        try (SecretBytes key = open(handle)) {
            return PayloadSigner.signTaprootKeyPath(key, sighash, auxiliary);
        }
    }

    /** Pure Ed25519 over the message. */
    public Signature signEd25519(KeyHandle handle, byte[] message) {
        try (SecretBytes key = open(handle)) {
            return PayloadSigner.signEd25519(key, message);
        }
    }

    private SecretBytes open(KeyHandle handle) {
        return sealer.open(handle.purpose(), handle.organizationId(), handle.resourceId(), handle.sealed());
    }
}
