package dev.keyhaven.server.wallet;

import dev.keyhaven.server.activity.ActivityAction;
import dev.keyhaven.server.activity.ActivityContext;
import dev.keyhaven.server.activity.ActivityHandler;
import dev.keyhaven.server.activity.ActivityResource;
import dev.keyhaven.server.activity.ActivitySpec;
import dev.keyhaven.server.activity.ActivityType;
import dev.keyhaven.server.activity.ActivityVersion;
import dev.keyhaven.server.api.Params;

/** {@code create_wallet}: a new wallet with a fresh BIP-39 mnemonic and the accounts asked for. */
public final class CreateWalletHandler implements ActivityHandler<NewWallet> {
    private static final ActivitySpec SPEC = ActivitySpec.of(
            "create_wallet",
            ActivityResource.WALLET,
            ActivityAction.CREATE,
            new ActivityVersion(ActivityType.CREATE_WALLET, "createWalletIntent", "createWalletResult"));

    private final WalletCreator creator;

    public CreateWalletHandler(WalletCreator creator) {
        this.creator = creator;
    }

    @Override
    public ActivitySpec spec() {
        return SPEC;
    }

    @Override
    public NewWallet parse(Params parameters) {
        return NewWallet.read(parameters);
    }

    @Override
    public Object execute(ActivityContext context, NewWallet intent) {
        return creator.create(
                context.tx(), context.organizationId(), intent, context.now(), context.ids(), context.addresses());
    }
}
