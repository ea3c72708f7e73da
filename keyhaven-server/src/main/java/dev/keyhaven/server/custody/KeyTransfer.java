package dev.keyhaven.server.custody;

import dev.keyhaven.crypto.EcCurve;
import dev.keyhaven.crypto.KeyCurve;
import dev.keyhaven.crypto.SecretBytes;
import dev.keyhaven.crypto.bundle.TurnkeyHpke;
import dev.keyhaven.crypto.hd.InvalidMnemonicException;
import dev.keyhaven.crypto.hd.Mnemonic;
import dev.keyhaven.server.api.ApiException;
import dev.keyhaven.server.tx.Tx;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;

/**
 * Key material leaving and entering custody, always encrypted (turnkey-api.md §6): export bundles (HPKE to the
 * client's target key, signed by the {@link BundleSigner}), import targets (a fresh P-256 key whose public half the
 * signer vouches for, the private half sealed until the import uses it) and recovery credentials (a fresh P-256 key
 * encrypted to the client as a credential bundle and never stored). Every opened secret is wiped before returning.
 */
public final class KeyTransfer {
    private static final HexFormat HEX = HexFormat.of();
    private static final ObjectMapper JSON = JsonMapper.builder().build();

    private final KeySealer sealer;
    private final BundleSigner signer;
    private final SecureRandom random;

    public KeyTransfer(KeySealer sealer, BundleSigner signer, SecureRandom random) {
        this.sealer = sealer;
        this.signer = signer;
        this.random = random;
    }

    /** The bundle signer's public key (hex, uncompressed), as clients pin it. */
    public String signerPublicKey() {
        return signer.publicKeyHex();
    }

    /**
     * A client's target public key: hex of a P-256 point, compressed or uncompressed, with or without {@code 0x}.
     *
     * @throws ApiException 400 naming {@code field} when it is not one
     */
    public static byte[] targetKey(String hex, String field) {
        String digits = hex.startsWith("0x") ? hex.substring(2) : hex;
        try {
            return TurnkeyHpke.recipientKey(HEX.parseHex(digits));
        } catch (IllegalArgumentException e) {
            throw ApiException.badField(
                    field, "must be a P-256 public key (hex, 33 bytes compressed or 65 " + "uncompressed)");
        }
    }

    /** export_wallet: the wallet's mnemonic (UTF-8) encrypted to {@code target}. */
    public String exportMnemonic(String organizationId, String walletId, SealedSecret sealedMnemonic, byte[] target) {
        try (SecretBytes phrase = sealer.open(SealPurpose.WALLET_MNEMONIC, organizationId, walletId, sealedMnemonic)) {
            return exportBundle(organizationId, TurnkeyHpke.seal(target, phrase));
        }
    }

    /** export_wallet_account, export_private_key: the raw 32-byte private key encrypted to {@code target}. */
    public String exportKey(KeyHandle handle, byte[] target) {
        try (SecretBytes key =
                sealer.open(handle.purpose(), handle.organizationId(), handle.resourceId(), handle.sealed())) {
            return exportBundle(handle.organizationId(), TurnkeyHpke.seal(target, key));
        }
    }

    private String exportBundle(String organizationId, TurnkeyHpke.Encrypted encrypted) {
        Map<String, String> inner = new LinkedHashMap<>();
        inner.put("encappedPublic", HEX.formatHex(encrypted.encappedPublic()));
        inner.put("ciphertext", HEX.formatHex(encrypted.ciphertext()));
        inner.put("organizationId", organizationId);
        return signer.signedBundle(inner);
    }

    /** A fresh import target: its public key (hex, uncompressed), its private key sealed, and the signed bundle. */
    public record ImportTarget(String publicKeyHex, SealedSecret sealedKey, String importBundle) {}

    /** init_import_wallet, init_import_private_key: a target for {@code userId}, sealed for {@code targetId}. */
    public ImportTarget newImportTarget(Tx tx, String organizationId, String userId, String targetId) {
        try (SecretBytes key = KeyCurve.P256.generatePrivateKey(random)) {
            String publicKey = HEX.formatHex(EcCurve.P256.decompress(KeyCurve.P256.publicKey(key)));
            Map<String, String> inner = new LinkedHashMap<>();
            inner.put("organizationId", organizationId);
            inner.put("userId", userId);
            inner.put("targetPublic", publicKey);
            return new ImportTarget(
                    publicKey,
                    sealer.seal(tx, SealPurpose.IMPORT_TARGET, organizationId, targetId, key),
                    signer.signedBundle(inner));
        }
    }

    /** A stored import target: its id (the seal's resource id) and sealed private key. */
    public record TargetHandle(String organizationId, String targetId, SealedSecret sealedKey) {}

    /**
     * import_wallet: opens {@code encryptedBundle} (a mnemonic encrypted to the target), checks it is a valid BIP-39
     * English mnemonic and seals it for {@code walletId}. The caller closes the seed.
     *
     * @throws ApiException 400 when the bundle is malformed, does not open with the target, or holds no mnemonic
     */
    public WalletSeed importWallet(Tx tx, TargetHandle target, String walletId, String encryptedBundle) {
        OwnerSealer owner = sealer.sealerFor(tx, target.organizationId());
        try (SecretBytes phrase = openImport(target, encryptedBundle);
                Mnemonic mnemonic = Mnemonic.parse(phrase);
                SecretBytes normalised = mnemonic.phrase()) {
            return new WalletSeed(
                    owner, owner.seal(SealPurpose.WALLET_MNEMONIC, walletId, normalised), mnemonic.toSeed());
        } catch (InvalidMnemonicException e) {
            throw ApiException.badField(
                    "parameters.encryptedBundle", "does not hold a valid mnemonic: " + e.getMessage());
        }
    }

    /**
     * import_private_key: opens {@code encryptedBundle} (a raw 32-byte private key encrypted to the target) and seals
     * it for {@code privateKeyId}.
     *
     * @throws ApiException 400 when the bundle is malformed, does not open, or is no private key of {@code curve}
     */
    public DerivedKey importPrivateKey(
            Tx tx, TargetHandle target, String privateKeyId, KeyCurve curve, String encryptedBundle) {
        try (SecretBytes key = openImport(target, encryptedBundle)) {
            byte[] publicKey;
            try {
                if (key.length() != 32) {
                    throw new IllegalArgumentException("wrong length");
                }
                publicKey = curve.publicKey(key);
            } catch (IllegalArgumentException | ArithmeticException e) {
                throw ApiException.badField(
                        "parameters.encryptedBundle", "does not hold a 32-byte private key of " + curve.wireName());
            }
            return new DerivedKey(
                    publicKey, sealer.seal(tx, SealPurpose.PRIVATE_KEY, target.organizationId(), privateKeyId, key));
        }
    }

    private SecretBytes openImport(TargetHandle target, String encryptedBundle) {
        TurnkeyHpke.Encrypted encrypted;
        try {
            JsonNode bundle = JSON.readTree(encryptedBundle);
            encrypted = new TurnkeyHpke.Encrypted(
                    HEX.parseHex(bundle.path("encappedPublic").asString()),
                    HEX.parseHex(bundle.path("ciphertext").asString()));
        } catch (JacksonException | IllegalArgumentException e) {
            throw ApiException.badField(
                    "parameters.encryptedBundle",
                    "must be the JSON {\"encappedPublic\",\"ciphertext\"} (hex) that @turnkey/crypto produces");
        }
        try (SecretBytes targetKey = sealer.open(
                SealPurpose.IMPORT_TARGET, target.organizationId(), target.targetId(), target.sealedKey())) {
            return TurnkeyHpke.open(targetKey, encrypted);
        } catch (IllegalArgumentException e) {
            throw ApiException.badField(
                    "parameters.encryptedBundle",
                    "does not open with this user's current import target (encrypt to the latest init_import bundle)");
        }
    }

    /** A fresh recovery credential: its compressed public key (hex) and its private key as a credential bundle. */
    public record RecoveryCredential(String publicKeyHex, String credentialBundle) {
        @Override
        public String toString() {
            return "RecoveryCredential[" + publicKeyHex + ", bundle redacted]";
        }
    }

    /** A fresh P-256 credential whose private key only {@code target}'s holder can read; nothing of it is kept. */
    public RecoveryCredential newRecoveryCredential(byte[] target) {
        try (SecretBytes key = KeyCurve.P256.generatePrivateKey(random)) {
            return new RecoveryCredential(
                    HEX.formatHex(KeyCurve.P256.publicKey(key)),
                    TurnkeyHpke.seal(target, key).credentialBundle());
        }
    }
}
