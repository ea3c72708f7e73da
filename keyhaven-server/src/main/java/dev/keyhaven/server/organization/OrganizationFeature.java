package dev.keyhaven.server.organization;

import dev.keyhaven.server.activity.ActivityHandler;
import dev.keyhaven.server.api.Ids;
import dev.keyhaven.server.oidc.OidcVerifier;
import dev.keyhaven.server.privatekey.PrivateKeyGenerator;
import dev.keyhaven.server.privatekey.PrivateKeyQueries;
import dev.keyhaven.server.smartcontract.SmartContractInterfaceQueries;
import dev.keyhaven.server.tx.Transactor;
import dev.keyhaven.server.user.AttestationVerifier;
import dev.keyhaven.server.user.OauthProviderRepository;
import dev.keyhaven.server.user.UserCreator;
import dev.keyhaven.server.user.UserRepository;
import dev.keyhaven.server.wallet.WalletCreator;
import dev.keyhaven.server.wallet.WalletQueries;
import java.time.Clock;
import java.util.List;

/**
 * Organizations assembled: sub-organizations (created, listed, deleted), the root quorum, the name and the
 * features; the root organization's set-up (what
 * {@code init} does); and the sub-organization creator the auth proxy signs users up with.
 */
public final class OrganizationFeature {
    private final Transactor transactor;
    private final OrganizationRepository organizations;
    private final UserRepository users;
    private final OauthProviderRepository oauthProviders;
    private final RootOrganizationSetup rootSetup;
    private final SubOrganizationCreator subOrganizations;
    private final List<ActivityHandler<?>> handlers;
    private final SubOrganizationQueries subOrganizationQueries;

    public OrganizationFeature(
            Transactor transactor,
            OrganizationRepository organizations,
            UserRepository users,
            OauthProviderRepository oauthProviders,
            UserCreator userCreator,
            WalletCreator walletCreator,
            PrivateKeyGenerator privateKeyGenerator,
            AttestationVerifier attestations,
            OidcVerifier oidc,
            Clock clock,
            Ids ids) {
        this.transactor = transactor;
        this.organizations = organizations;
        this.users = users;
        this.oauthProviders = oauthProviders;
        this.rootSetup = new RootOrganizationSetup(transactor, organizations, users, userCreator, clock, ids);
        this.subOrganizations = new SubOrganizationCreator(organizations, userCreator);
        this.handlers = List.of(
                new CreateSubOrganizationHandler(
                        organizations, userCreator, attestations, walletCreator, privateKeyGenerator, oidc),
                new UpdateRootQuorumHandler(organizations, users),
                new UpdateOrganizationNameHandler(organizations),
                new DeleteSubOrganizationHandler(organizations),
                new SetOrganizationFeatureHandler(organizations),
                new RemoveOrganizationFeatureHandler(organizations));
        this.subOrganizationQueries = new SubOrganizationQueries(transactor, organizations, oidc);
    }

    public List<ActivityHandler<?>> handlers() {
        return handlers;
    }

    /** list_suborgs and list_verified_suborgs. */
    public SubOrganizationQueries subOrganizationQueries() {
        return subOrganizationQueries;
    }

    public RootOrganizationSetup rootSetup() {
        return rootSetup;
    }

    public SubOrganizationCreator subOrganizations() {
        return subOrganizations;
    }

    /** The organization reads, which embed the wallets, private keys and contract interfaces of an organization. */
    public OrganizationQueries queries(
            WalletQueries wallets, PrivateKeyQueries privateKeys, SmartContractInterfaceQueries contractInterfaces) {
        return new OrganizationQueries(
                transactor, organizations, users, wallets, privateKeys, oauthProviders, contractInterfaces);
    }
}
