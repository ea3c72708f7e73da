package dev.keyhaven.server.organization;

import dev.keyhaven.server.activity.ActivityAction;
import dev.keyhaven.server.activity.ActivityContext;
import dev.keyhaven.server.activity.ActivityEffect;
import dev.keyhaven.server.activity.ActivityHandler;
import dev.keyhaven.server.activity.ActivityResource;
import dev.keyhaven.server.activity.ActivitySpec;
import dev.keyhaven.server.activity.ActivityType;
import dev.keyhaven.server.activity.ActivityVersion;
import dev.keyhaven.server.api.ApiException;
import dev.keyhaven.server.api.ErrorCode;
import dev.keyhaven.server.api.Params;
import dev.keyhaven.server.oidc.OidcVerifier;
import dev.keyhaven.server.user.AttestationVerifier;
import dev.keyhaven.server.user.NewUser;
import dev.keyhaven.server.user.UserCreator;
import dev.keyhaven.server.wallet.NewWallet;
import dev.keyhaven.server.wallet.WalletCreator;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * {@code create_sub_organization}: creates a sub-organization of the caller's organization with its root users
 * and root quorum. The parent's users may read the sub-organization but not change it. A sub-organization cannot
 * create sub-organizations of its own.
 */
public final class CreateSubOrganizationHandler implements ActivityHandler<CreateSubOrganizationHandler.Intent> {
    private static final ActivitySpec SPEC = ActivitySpec.of(
                    "create_sub_organization",
                    ActivityResource.ORGANIZATION,
                    ActivityAction.CREATE,
                    new ActivityVersion(
                            ActivityType.CREATE_SUB_ORGANIZATION_V8,
                            "createSubOrganizationIntentV8",
                            "createSubOrganizationResultV8"),
                    new ActivityVersion(
                            ActivityType.CREATE_SUB_ORGANIZATION_V7,
                            "createSubOrganizationIntentV7",
                            "createSubOrganizationResultV7"))
            .withEffect(ActivityEffect.CREATES_ORGANIZATION);

    private static final Map<String, FeatureName> DISABLE_FLAGS = Map.of(
            "disableEmailRecovery", FeatureName.EMAIL_RECOVERY,
            "disableEmailAuth", FeatureName.EMAIL_AUTH,
            "disableSmsAuth", FeatureName.SMS_AUTH,
            "disableOtpEmailAuth", FeatureName.OTP_EMAIL_AUTH);

    private final OrganizationRepository organizations;
    private final UserCreator users;
    private final AttestationVerifier attestations;

    private final WalletCreator wallets;
    private final OidcVerifier oidc;

    public CreateSubOrganizationHandler(
            OrganizationRepository organizations,
            UserCreator users,
            AttestationVerifier attestations,
            WalletCreator wallets,
            OidcVerifier oidc) {
        this.oidc = oidc;
        this.organizations = organizations;
        this.wallets = wallets;
        this.users = users;
        this.attestations = attestations;
    }

    /** The validated parameters. */
    public record Intent(
            String name,
            List<NewUser> rootUsers,
            int rootQuorumThreshold,
            Optional<NewWallet> wallet,
            Set<FeatureName> featuresOff) {}

    @Override
    public ActivitySpec spec() {
        return SPEC;
    }

    @Override
    public Intent parse(Params p) {
        return parse(p, ActivityType.CREATE_SUB_ORGANIZATION_V8);
    }

    /** V7's root users ({@code v1RootUserParamsV4}) register OAuth providers by {@code oidcToken} only. */
    @Override
    public Intent parse(Params p, ActivityType type) {
        boolean tokensOnly = type == ActivityType.CREATE_SUB_ORGANIZATION_V7;
        String name = p.requiredString("subOrganizationName");
        List<NewUser> rootUsers =
                p.requiredObjects("rootUsers", u -> NewUser.read(u, attestations, oidc, false, tokensOnly));
        if (rootUsers.isEmpty()) {
            throw ApiException.badField(p.pathOf("rootUsers"), "must name at least one root user");
        }
        int threshold = p.requiredInt("rootQuorumThreshold");
        if (threshold < 1) {
            throw ApiException.badField(
                    p.pathOf("rootQuorumThreshold"), "is invalid: quorum threshold must be " + "non-zero integer");
        }
        if (threshold > rootUsers.size()) {
            throw ApiException.badField(
                    p.pathOf("rootQuorumThreshold"),
                    "is invalid: quorum threshold (" + threshold + ") exceeds the number of root users ("
                            + rootUsers.size() + ")");
        }
        Optional<NewWallet> wallet = p.optionalObject("wallet").map(NewWallet::read);
        for (String unsupported : List.of("verificationToken", "clientSignature")) {
            if (p.has(unsupported)) {
                throw new ApiException(
                        ErrorCode.UNIMPLEMENTED,
                        p.pathOf(unsupported) + " is not supported by this " + "server yet",
                        p.pathOf(unsupported));
            }
        }
        // The features the sub-organization starts without (get_organization_configs lists the rest).
        Set<FeatureName> featuresOff = EnumSet.noneOf(FeatureName.class);
        for (Map.Entry<String, FeatureName> flag : DISABLE_FLAGS.entrySet()) {
            if (p.optionalBoolean(flag.getKey(), false)) {
                featuresOff.add(flag.getValue());
            }
        }
        return new Intent(name, rootUsers, threshold, wallet, featuresOff);
    }

    @Override
    public Object execute(ActivityContext context, Intent intent) {
        SubOrganizationCreator.Created created = new SubOrganizationCreator(organizations, users)
                .create(
                        context.tx(),
                        context.organizationId(),
                        intent.name(),
                        intent.rootUsers(),
                        intent.rootQuorumThreshold(),
                        intent.featuresOff(),
                        context.now(),
                        context.ids());
        String id = created.organizationId();
        List<String> rootUserIds = created.rootUserIds();
        Optional<WalletCreator.Created> wallet = intent.wallet()
                .map(w -> wallets.create(context.tx(), id, w, context.now(), context.ids(), context.addresses()));
        return new Result(id, wallet, rootUserIds);
    }

    /** {@code createSubOrganizationResultV8} (and V7); {@code wallet} when one was asked for. */
    public record Result(String subOrganizationId, Optional<WalletCreator.Created> wallet, List<String> rootUserIds) {}
}
