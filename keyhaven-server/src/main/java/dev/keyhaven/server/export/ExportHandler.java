package dev.keyhaven.server.export;

import dev.keyhaven.crypto.address.Addresses;
import dev.keyhaven.policy.Value;
import dev.keyhaven.server.activity.ActivityAction;
import dev.keyhaven.server.activity.ActivityContext;
import dev.keyhaven.server.activity.ActivityHandler;
import dev.keyhaven.server.activity.ActivityResource;
import dev.keyhaven.server.activity.ActivitySpec;
import dev.keyhaven.server.activity.ActivityType;
import dev.keyhaven.server.activity.ActivityVersion;
import dev.keyhaven.server.activity.PolicyFacts;
import dev.keyhaven.server.api.ApiException;
import dev.keyhaven.server.api.Params;
import dev.keyhaven.server.custody.KeyHandle;
import dev.keyhaven.server.custody.KeyTransfer;
import dev.keyhaven.server.custody.SealPurpose;
import dev.keyhaven.server.privatekey.PrivateKey;
import dev.keyhaven.server.privatekey.PrivateKeyPolicyView;
import dev.keyhaven.server.privatekey.PrivateKeyRepository;
import dev.keyhaven.server.state.StateReads;
import dev.keyhaven.server.wallet.SealedAccount;
import dev.keyhaven.server.wallet.Wallet;
import dev.keyhaven.server.wallet.WalletAccount;
import dev.keyhaven.server.wallet.WalletRepository;
import dev.keyhaven.server.wallet.WalletViews;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * The three exports, one handler each: {@code export_wallet} (the mnemonic, UTF-8), {@code export_wallet_account}
 * and {@code export_private_key} (the raw 32-byte key). Each finds its resource (404 if it is not the
 * organization's), lets custody encrypt the secret to the target key, marks the resource exported, and answers
 * {@code {<resource field>, exportBundle}}.
 */
final class ExportHandler implements ActivityHandler<ExportTarget> {
    private static final String ENGLISH = "MNEMONIC_LANGUAGE_ENGLISH";

    /** Finds, encrypts and marks one resource; returns the resource as the result reports it, and the bundle. */
    private interface Exporter {
        Exported export(ActivityContext context, String resource, byte[] target);
    }

    private record Exported(String resource, String bundle) {}

    /** The keywords policies read about the resource (a resource that does not exist binds none). */
    private interface Facts {
        PolicyFacts of(StateReads organization, String resource, PolicyFacts params);
    }

    private final ActivitySpec spec;
    private final String resourceField;
    private final Consumer<Params> extraChecks;
    private final Exporter exporter;
    private final Facts facts;

    private ExportHandler(
            ActivitySpec spec, String resourceField, Consumer<Params> extraChecks, Exporter exporter, Facts facts) {
        this.spec = spec;
        this.resourceField = resourceField;
        this.extraChecks = extraChecks;
        this.exporter = exporter;
        this.facts = facts;
    }

    /** The lookup of a wallet by id, for policies. */
    private record WalletLookup(String walletId) {}

    /** The lookup of a wallet account by address, for policies. */
    private record AccountLookup(String address) {}

    /** The lookup of a private key and its tags, for policies. */
    private record PrivateKeyLookup(String privateKeyId) {}

    private static PolicyFacts withWallet(
            StateReads organization, WalletRepository wallets, String walletId, PolicyFacts facts) {
        Optional<Wallet> wallet = organization.get(
                new WalletLookup(walletId), tx -> wallets.find(tx, organization.organizationId(), walletId));
        return wallet.map(w -> facts.with("wallet", WalletViews.policyValue(w))).orElse(facts);
    }

    /** {@code export_wallet}: the mnemonic; only {@code MNEMONIC_LANGUAGE_ENGLISH} (or none) is accepted. */
    public static ExportHandler wallet(WalletRepository wallets, KeyTransfer transfer) {
        return new ExportHandler(
                ActivitySpec.of(
                        "export_wallet",
                        ActivityResource.WALLET,
                        ActivityAction.EXPORT,
                        new ActivityVersion(ActivityType.EXPORT_WALLET, "exportWalletIntent", "exportWalletResult")),
                "walletId",
                p -> {
                    if (!p.optionalString("language").orElse(ENGLISH).equals(ENGLISH)) {
                        throw ApiException.badField(p.pathOf("language"), "only " + ENGLISH + " is supported");
                    }
                },
                (context, walletId, target) -> {
                    String org = context.organizationId();
                    if (wallets.find(context.tx(), org, walletId).isEmpty()) {
                        throw ApiException.notFound("no wallet found with id " + walletId);
                    }
                    String bundle = transfer.exportMnemonic(
                            org, walletId, wallets.sealedMnemonic(context.tx(), org, walletId), target);
                    wallets.markExported(context.tx(), org, walletId, context.now());
                    return new Exported(walletId, bundle);
                },
                (organization, walletId, params) -> withWallet(organization, wallets, walletId, params));
    }

    /** {@code export_wallet_account}: the key of the account with this address (any letter case for hex). */
    public static ExportHandler walletAccount(WalletRepository wallets, KeyTransfer transfer) {
        return new ExportHandler(
                ActivitySpec.of(
                        "export_wallet_account",
                        ActivityResource.WALLET,
                        ActivityAction.EXPORT,
                        new ActivityVersion(
                                ActivityType.EXPORT_WALLET_ACCOUNT,
                                "exportWalletAccountIntent",
                                "exportWalletAccountResult")),
                "address",
                p -> {},
                (context, address, target) -> {
                    String org = context.organizationId();
                    SealedAccount sealed = wallets.findSealedAccountByAddress(
                                    context.tx(), org, Addresses.lookupKey(address))
                            .orElseThrow(() -> ApiException.notFound(
                                    "no wallet account of this organization has the address " + address));
                    WalletAccount account = sealed.account();
                    String bundle = transfer.exportKey(
                            new KeyHandle(
                                    account.curve(),
                                    SealPurpose.WALLET_ACCOUNT_KEY,
                                    org,
                                    account.id(),
                                    sealed.sealedKey()),
                            target);
                    wallets.markAccountExported(context.tx(), org, account.id(), context.now());
                    return new Exported(account.address(), bundle);
                },
                (organization, address, params) -> organization
                        .get(
                                new AccountLookup(address),
                                tx -> wallets.findSealedAccountByAddress(
                                                tx, organization.organizationId(), Addresses.lookupKey(address))
                                        .map(SealedAccount::account))
                        .map(a -> withWallet(
                                organization,
                                wallets,
                                a.walletId(),
                                params.with("wallet_account", Value.struct(Map.of("address", Value.of(a.address()))))))
                        .orElse(params));
    }

    /** {@code export_private_key}: the private key with this id. */
    public static ExportHandler privateKey(PrivateKeyRepository keys, KeyTransfer transfer) {
        return new ExportHandler(
                ActivitySpec.of(
                        "export_private_key",
                        ActivityResource.PRIVATE_KEY,
                        ActivityAction.EXPORT,
                        new ActivityVersion(
                                ActivityType.EXPORT_PRIVATE_KEY, "exportPrivateKeyIntent", "exportPrivateKeyResult")),
                "privateKeyId",
                p -> {},
                (context, id, target) -> {
                    String org = context.organizationId();
                    PrivateKey key = keys.find(context.tx(), org, id)
                            .orElseThrow(() -> ApiException.notFound("no private key found with id " + id));
                    String bundle = transfer.exportKey(
                            new KeyHandle(
                                    key.curve(),
                                    SealPurpose.PRIVATE_KEY,
                                    org,
                                    id,
                                    keys.sealedKey(context.tx(), org, id)),
                            target);
                    keys.markExported(context.tx(), org, id, context.now());
                    return new Exported(id, bundle);
                },
                (organization, id, params) -> organization
                        .get(
                                new PrivateKeyLookup(id),
                                tx -> keys.find(tx, organization.organizationId(), id)
                                        .map(k -> PrivateKeyPolicyView.of(
                                                k,
                                                keys.tagIdsByKey(tx, organization.organizationId())
                                                        .getOrDefault(id, List.of()))))
                        .map(key -> params.with("private_key", key))
                        .orElse(params));
    }

    @Override
    public ActivitySpec spec() {
        return spec;
    }

    @Override
    public ExportTarget parse(Params p) {
        extraChecks.accept(p);
        return ExportTarget.read(p, resourceField);
    }

    /**
     * {@code activity.params.target_public_key}, and {@code wallet} (export_wallet), {@code wallet_account} and
     * {@code wallet} (export_wallet_account) or {@code private_key} (export_private_key).
     */
    @Override
    public PolicyFacts policyFacts(StateReads organization, ExportTarget intent) {
        return facts.of(
                organization,
                intent.resource(),
                PolicyFacts.params(Map.of("target_public_key", Value.of(intent.targetPublicKeyHex()))));
    }

    @Override
    public Object execute(ActivityContext context, ExportTarget intent) {
        Exported exported = exporter.export(context, intent.resource(), intent.targetPublicKey());
        Map<String, String> result = new LinkedHashMap<>();
        result.put(resourceField, exported.resource());
        result.put("exportBundle", exported.bundle());
        return result;
    }
}
