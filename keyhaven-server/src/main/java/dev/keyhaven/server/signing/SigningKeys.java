package dev.keyhaven.server.signing;

import dev.keyhaven.crypto.address.AddressFormat;
import dev.keyhaven.crypto.address.Addresses;
import dev.keyhaven.server.api.ApiException;
import dev.keyhaven.server.custody.KeyHandle;
import dev.keyhaven.server.custody.SealPurpose;
import dev.keyhaven.server.privatekey.PrivateKey;
import dev.keyhaven.server.privatekey.PrivateKeyAddress;
import dev.keyhaven.server.privatekey.PrivateKeyRepository;
import dev.keyhaven.server.state.StateReads;
import dev.keyhaven.server.tx.Tx;
import dev.keyhaven.server.wallet.SealedAccount;
import dev.keyhaven.server.wallet.Wallet;
import dev.keyhaven.server.wallet.WalletAccount;
import dev.keyhaven.server.wallet.WalletRepository;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;

/**
 * Resolves {@code signWith} to a key: a wallet account's address first, then a private key's address, then a
 * private key's id. Addresses compare by their lookup key, so an Ethereum address matches in any letter case.
 */
public final class SigningKeys {
    private final WalletRepository wallets;
    private final PrivateKeyRepository privateKeys;

    public SigningKeys(WalletRepository wallets, PrivateKeyRepository privateKeys) {
        this.wallets = wallets;
        this.privateKeys = privateKeys;
    }

    /**
     * The key found, with the account or private key it belongs to (policies read those), and the format of the
     * address {@code signWith} named (none when it named a private key by id).
     */
    public record Resolved(
            KeyHandle handle,
            Optional<WalletAccount> account,
            Optional<PrivateKey> privateKey,
            Optional<AddressFormat> addressFormat) {

        /**
         * The public key: 33-byte compressed SEC1 for ECDSA curves (a private key reports its key uncompressed, as the
         * real service does; scripts and signature slots want the compressed form), 32 bytes for Ed25519.
         */
        public byte[] publicKey() {
            byte[] reported = HexFormat.of()
                    .parseHex(account.map(WalletAccount::publicKey)
                            .orElseGet(() -> privateKey.orElseThrow().publicKey()));
            return handle.curve()
                    .ecCurve()
                    .map(curve -> curve.decodePoint(reported).getEncoded(true))
                    .orElse(reported);
        }
    }

    /**
     * The key {@code signWith} names in the organization.
     *
     * @throws ApiException (404) when it names none
     */
    public Resolved resolve(StateReads organization, String signWith) {
        return find(organization, signWith)
                .orElseThrow(() -> ApiException.notFound("no wallet account or private "
                        + "key of this organization matches signWith '"
                        + (signWith.length() <= 128 ? signWith : signWith.substring(0, 128) + "…")
                        + "'"));
    }

    /** The key {@code signWith} names in the organization, if any. */
    public Optional<Resolved> find(StateReads organization, String signWith) {
        return organization.get(new SignWithLookup(signWith), tx -> find(tx, organization.organizationId(), signWith));
    }

    /** A wallet of the organization (the owner of a wallet account, for policies). */
    public Optional<Wallet> wallet(StateReads organization, String walletId) {
        return organization.get(
                new WalletLookup(walletId), tx -> wallets.find(tx, organization.organizationId(), walletId));
    }

    /** The tag ids of a private key of the organization (for policies). */
    public List<String> privateKeyTags(StateReads organization, String privateKeyId) {
        return organization
                .get(new PrivateKeyTagsLookup(), tx -> privateKeys.tagIdsByKey(tx, organization.organizationId()))
                .getOrDefault(privateKeyId, List.of());
    }

    /** The lookup of a key by what {@code signWith} says; answers (sealed keys) are kept with the state. */
    private record SignWithLookup(String signWith) {}

    /** The lookup of a wallet by id. */
    private record WalletLookup(String walletId) {}

    /** The lookup of every private key's tag ids. */
    private record PrivateKeyTagsLookup() {}

    private Optional<Resolved> find(Tx tx, String organizationId, String signWith) {
        String addressKey = Addresses.lookupKey(signWith);
        Optional<SealedAccount> account = wallets.findSealedAccountByAddress(tx, organizationId, addressKey);
        if (account.isPresent()) {
            WalletAccount a = account.get().account();
            return Optional.of(new Resolved(
                    new KeyHandle(
                            a.curve(),
                            SealPurpose.WALLET_ACCOUNT_KEY,
                            organizationId,
                            a.id(),
                            account.get().sealedKey()),
                    Optional.of(a),
                    Optional.empty(),
                    Optional.of(a.addressFormat())));
        }
        Optional<PrivateKey> key = privateKeys
                .findByAddress(tx, organizationId, addressKey)
                .or(() -> privateKeys.find(tx, organizationId, signWith));
        if (key.isPresent()) {
            PrivateKey k = key.get();
            Optional<AddressFormat> format = k.addresses().stream()
                    .filter(a -> Addresses.lookupKey(a.address()).equals(addressKey))
                    .map(PrivateKeyAddress::format)
                    .findFirst();
            return Optional.of(new Resolved(
                    new KeyHandle(
                            k.curve(),
                            SealPurpose.PRIVATE_KEY,
                            organizationId,
                            k.id(),
                            privateKeys.sealedKey(tx, organizationId, k.id())),
                    Optional.empty(),
                    key,
                    format));
        }
        return Optional.empty();
    }
}
