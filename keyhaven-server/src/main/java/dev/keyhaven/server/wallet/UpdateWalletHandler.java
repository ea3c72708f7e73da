package dev.keyhaven.server.wallet;

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
import dev.keyhaven.server.state.StateReads;
import java.util.Map;
import java.util.Optional;

/** {@code update_wallet}: renames a wallet (names stay unique in the organization). */
final class UpdateWalletHandler implements ActivityHandler<UpdateWalletHandler.Intent> {
    private static final ActivitySpec SPEC = ActivitySpec.of(
            "update_wallet",
            ActivityResource.WALLET,
            ActivityAction.UPDATE,
            new ActivityVersion(ActivityType.UPDATE_WALLET, "updateWalletIntent", "updateWalletResult"));

    private final WalletRepository wallets;

    public UpdateWalletHandler(WalletRepository wallets) {
        this.wallets = wallets;
    }

    /** The validated parameters. */
    public record Intent(String walletId, Optional<String> walletName) {}

    @Override
    public ActivitySpec spec() {
        return SPEC;
    }

    @Override
    public Intent parse(Params p) {
        return new Intent(p.requiredString("walletId"), p.optionalString("walletName"));
    }

    /** {@code activity.params.wallet_id} and, when it exists, {@code wallet}. */
    @Override
    public PolicyFacts policyFacts(StateReads organization, Intent intent) {
        PolicyFacts facts = PolicyFacts.params(Map.of("wallet_id", Value.of(intent.walletId())));
        return organization
                .get(
                        new WalletLookup(intent.walletId()),
                        tx -> wallets.find(tx, organization.organizationId(), intent.walletId()))
                .map(w -> facts.with("wallet", WalletViews.policyValue(w)))
                .orElse(facts);
    }

    /** The lookup of the wallet an update names. */
    private record WalletLookup(String walletId) {}

    @Override
    public Object execute(ActivityContext context, Intent intent) {
        String org = context.organizationId();
        Wallet wallet = wallets.find(context.tx(), org, intent.walletId())
                .orElseThrow(() -> ApiException.notFound("no wallet found with id " + intent.walletId()));
        if (intent.walletName().isPresent() && !intent.walletName().get().equals(wallet.name())) {
            String name = intent.walletName().get();
            if (wallets.findByName(context.tx(), org, name).isPresent()) {
                throw ApiException.badRequest("a wallet named '" + name + "' already exists");
            }
            wallets.rename(context.tx(), org, wallet.id(), name, context.now());
        }
        return new Result(wallet.id());
    }

    /** {@code updateWalletResult}. */
    public record Result(String walletId) {}
}
