package dev.keyhaven.server.organization;

import static dev.keyhaven.server.activity.VersionTable.version;

import dev.keyhaven.server.activity.ActivityAction;
import dev.keyhaven.server.activity.ActivityContext;
import dev.keyhaven.server.activity.ActivityEffect;
import dev.keyhaven.server.activity.ActivityHandler;
import dev.keyhaven.server.activity.ActivityResource;
import dev.keyhaven.server.activity.ActivitySpec;
import dev.keyhaven.server.activity.ActivityType;
import dev.keyhaven.server.activity.VersionTable;
import dev.keyhaven.server.api.ApiException;
import dev.keyhaven.server.api.ErrorCode;
import dev.keyhaven.server.api.Params;
import dev.keyhaven.server.oidc.OidcVerifier;
import dev.keyhaven.server.privatekey.PrivateKeyGenerator;
import dev.keyhaven.server.privatekey.PrivateKeyParams;
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
    /** {@code v1RootUserParamsV5} (V8). */
    static final NewUser.Shape V8 = NewUser.Shape.CURRENT.root();
    /** {@code v1RootUserParamsV4} (V7): OAuth providers by {@code oidcToken} only. */
    static final NewUser.Shape V7 = V8.oauthProviders(NewUser.OauthProviders.TOKENS_ONLY);
    /** {@code v1RootUserParamsV3} (V6): no phone number. */
    static final NewUser.Shape V6 = V7.withoutPhoneNumber();
    /** {@code v1RootUserParamsV2} (V5): API keys without a curve (P-256). */
    static final NewUser.Shape V5 = V6.p256ApiKeys();
    /** {@code v1RootUserParams} (V2–V4): no OAuth providers. */
    static final NewUser.Shape V2 = V5.oauthProviders(NewUser.OauthProviders.NONE);

    private final VersionTable<Intent> versions;
    private final ActivitySpec spec;

    private static final Map<String, FeatureName> DISABLE_FLAGS = Map.of(
            "disableEmailRecovery", FeatureName.EMAIL_RECOVERY,
            "disableEmailAuth", FeatureName.EMAIL_AUTH,
            "disableSmsAuth", FeatureName.SMS_AUTH,
            "disableOtpEmailAuth", FeatureName.OTP_EMAIL_AUTH);

    private final OrganizationRepository organizations;
    private final UserCreator users;
    private final AttestationVerifier attestations;

    private final WalletCreator wallets;
    private final PrivateKeyGenerator privateKeys;
    private final OidcVerifier oidc;

    public CreateSubOrganizationHandler(
            OrganizationRepository organizations,
            UserCreator users,
            AttestationVerifier attestations,
            WalletCreator wallets,
            PrivateKeyGenerator privateKeys,
            OidcVerifier oidc) {
        this.oidc = oidc;
        this.privateKeys = privateKeys;
        this.organizations = organizations;
        this.wallets = wallets;
        this.users = users;
        this.attestations = attestations;
        // V1 ({name, rootAuthenticator}) is sent by no published client and is not accepted.
        this.versions = VersionTable.of(
                version(
                        ActivityType.CREATE_SUB_ORGANIZATION_V8,
                        "createSubOrganizationIntentV8",
                        "createSubOrganizationResultV8",
                        p -> read(p, V8, Extras.WALLET)),
                version(
                        ActivityType.CREATE_SUB_ORGANIZATION_V7,
                        "createSubOrganizationIntentV7",
                        "createSubOrganizationResultV7",
                        p -> read(p, V7, Extras.WALLET)),
                version(
                        ActivityType.CREATE_SUB_ORGANIZATION_V6,
                        "createSubOrganizationIntentV6",
                        "createSubOrganizationResultV6",
                        p -> read(p, V6, Extras.WALLET)),
                version(
                        ActivityType.CREATE_SUB_ORGANIZATION_V5,
                        "createSubOrganizationIntentV5",
                        "createSubOrganizationResultV5",
                        p -> read(p, V5, Extras.WALLET)),
                version(
                        ActivityType.CREATE_SUB_ORGANIZATION_V4,
                        "createSubOrganizationIntentV4",
                        "createSubOrganizationResultV4",
                        p -> read(p, V2, Extras.WALLET)),
                version(
                        ActivityType.CREATE_SUB_ORGANIZATION_V3,
                        "createSubOrganizationIntentV3",
                        "createSubOrganizationResultV3",
                        result -> ((Result) result).v3(),
                        p -> read(p, V2, Extras.PRIVATE_KEYS)),
                version(
                        ActivityType.CREATE_SUB_ORGANIZATION_V2,
                        "createSubOrganizationIntentV2",
                        "createSubOrganizationResult",
                        result -> ((Result) result).v2(),
                        p -> read(p, V2, Extras.NONE)));
        this.spec = ActivitySpec.of(
                        "create_sub_organization", ActivityResource.ORGANIZATION, ActivityAction.CREATE, versions)
                .withEffect(ActivityEffect.CREATES_ORGANIZATION);
    }

    /** What a version may ask for besides the root users: a wallet (V4 on), private keys (V3), or neither (V2). */
    private enum Extras {
        NONE,
        PRIVATE_KEYS,
        WALLET
    }

    /** The validated parameters. */
    public record Intent(
            String name,
            List<NewUser> rootUsers,
            int rootQuorumThreshold,
            Optional<NewWallet> wallet,
            List<PrivateKeyParams> privateKeys,
            Set<FeatureName> featuresOff) {}

    @Override
    public ActivitySpec spec() {
        return spec;
    }

    @Override
    public Intent parse(Params p) {
        return parse(p, ActivityType.CREATE_SUB_ORGANIZATION_V8);
    }

    @Override
    public Intent parse(Params p, ActivityType type) {
        return versions.read(p, type);
    }

    private Intent read(Params p, NewUser.Shape shape, Extras extras) {
        String name = p.requiredString("subOrganizationName");
        List<NewUser> rootUsers = p.requiredObjects("rootUsers", u -> NewUser.read(u, shape, attestations, oidc));
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
        Optional<NewWallet> wallet =
                extras == Extras.WALLET ? p.optionalObject("wallet").map(NewWallet::read) : Optional.empty();
        List<PrivateKeyParams> keys =
                extras == Extras.PRIVATE_KEYS ? PrivateKeyParams.readForNewOrganization(p, "privateKeys") : List.of();
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
        return new Intent(name, rootUsers, threshold, wallet, keys, featuresOff);
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
        // V3's keys, generated in the new sub-organization within this activity's transaction.
        Optional<List<PrivateKeyGenerator.Created>> keys = intent.privateKeys().isEmpty()
                ? Optional.empty()
                : Optional.of(privateKeys.generate(
                        context.tx(), id, intent.privateKeys(), context.now(), context.ids(), context.addresses()));
        return new Result(id, wallet, keys, rootUserIds);
    }

    /**
     * {@code createSubOrganizationResultV8} (and V4–V7, the same shape); {@code wallet} when one was asked for;
     * {@code privateKeys} only V3 reports (and only V3 asks for).
     */
    public record Result(
            String subOrganizationId,
            Optional<WalletCreator.Created> wallet,
            Optional<List<PrivateKeyGenerator.Created>> privateKeys,
            List<String> rootUserIds) {

        /** {@code createSubOrganizationResult}, V2's shape. */
        ResultV2 v2() {
            return new ResultV2(subOrganizationId, rootUserIds);
        }

        /** {@code createSubOrganizationResultV3}: the private keys created with the sub-organization. */
        ResultV3 v3() {
            return new ResultV3(subOrganizationId, privateKeys.orElse(List.of()), rootUserIds);
        }
    }

    /** {@code createSubOrganizationResult}. */
    public record ResultV2(String subOrganizationId, List<String> rootUserIds) {}

    /** {@code createSubOrganizationResultV3}. */
    public record ResultV3(
            String subOrganizationId, List<PrivateKeyGenerator.Created> privateKeys, List<String> rootUserIds) {}
}
