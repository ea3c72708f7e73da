package dev.keyhaven.server.organization;

import dev.keyhaven.server.api.Caller;
import dev.keyhaven.server.api.Params;
import dev.keyhaven.server.privatekey.PrivateKeyQueries;
import dev.keyhaven.server.smartcontract.SmartContractInterfaceQueries;
import dev.keyhaven.server.state.StateReads;
import dev.keyhaven.server.tx.Transactor;
import dev.keyhaven.server.user.OauthProviderRepository;
import dev.keyhaven.server.user.TagType;
import dev.keyhaven.server.user.UserRepository;
import dev.keyhaven.server.user.WireViews;
import dev.keyhaven.server.wallet.WalletQueries;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** whoami, get_organization and get_organization_configs. */
public final class OrganizationQueries {
    private final Transactor transactor;
    private final OrganizationRepository organizations;
    private final UserRepository users;

    private final WalletQueries wallets;
    private final PrivateKeyQueries privateKeys;

    private final OauthProviderRepository oauthProviders;
    private final SmartContractInterfaceQueries contractInterfaces;

    public OrganizationQueries(
            Transactor transactor,
            OrganizationRepository organizations,
            UserRepository users,
            WalletQueries wallets,
            PrivateKeyQueries privateKeys,
            OauthProviderRepository oauthProviders,
            SmartContractInterfaceQueries contractInterfaces) {
        this.oauthProviders = oauthProviders;
        this.contractInterfaces = contractInterfaces;
        this.wallets = wallets;
        this.privateKeys = privateKeys;
        this.transactor = transactor;
        this.organizations = organizations;
        this.users = users;
    }

    /**
     * {@code whoami {organizationId}} → the caller's own organization and user. Answered on the target organization's
     * verified state: when the caller is one of its own users, the two names are remembered with that state (renaming
     * either is an activity of the organization, which advances its version); a parent's user or a
     * sub-organization's user is read directly, since their names belong to another organization's state.
     */
    public Map<String, Object> whoami(Caller caller, Params body, StateReads state) {
        String organizationId = caller.userOrganizationId();
        String userId = caller.userId();
        OrganizationRepository.MemberNames names = (organizationId.equals(state.organizationId())
                        ? state.get(new MemberOf(userId), tx -> organizations.memberNames(tx, organizationId, userId))
                        : transactor.read(tx -> organizations.memberNames(tx, organizationId, userId)))
                .orElseThrow();
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("organizationId", caller.userOrganizationId());
        out.put("organizationName", names.organizationName());
        out.put("userId", caller.userId());
        out.put("username", names.userName());
        return out;
    }

    /** The lookup of a user's and its organization's names, as a remembered lookup's key. */
    private record MemberOf(String userId) {}

    /**
     * {@code get_organization {organizationId}} → {@code {organizationData}}: the organization with its users, tags,
     * root quorum, private keys, wallets, features and smart-contract interface references. Policies and invitations
     * are empty lists until Keyhaven manages them here.
     */
    public Map<String, Object> getOrganization(Caller caller, Params body) {
        return Map.of("organizationData", transactor.read(tx -> {
            String id = caller.organizationId();
            Organization org = organizations.find(tx, id).orElseThrow();
            Map<String, Object> data = new LinkedHashMap<>();
            data.put("organizationId", org.id());
            data.put("name", org.name());
            data.put(
                    "users",
                    WireViews.users(
                            users.list(tx, id),
                            users.apiKeys(tx, id, Optional.empty()),
                            users.authenticators(tx, id, Optional.empty()),
                            users.userTagIds(tx, id),
                            oauthProviders.list(tx, id, Optional.empty())));
            data.put("policies", List.of());
            data.put("privateKeys", privateKeys.privateKeys(tx, id));
            data.put("invitations", List.of());
            data.put(
                    "tags",
                    users.tags(tx, id, Optional.<TagType>empty()).stream()
                            .map(WireViews::tag)
                            .toList());
            data.put("rootQuorum", org.rootQuorum());
            data.put("features", FeaturesResult.features(organizations.features(tx, id)));
            data.put("wallets", wallets.wallets(tx, id));
            data.put("smartContractInterfaceReferences", contractInterfaces.references(tx, id));
            return data;
        }));
    }

    /**
     * {@code get_organization_configs {organizationId}} → {@code {configs: {features, quorum}}}: the enabled features
     * with their values, and the root quorum.
     */
    public Map<String, Object> getOrganizationConfigs(Caller caller, Params body) {
        return Map.of("configs", transactor.read(tx -> {
            String id = caller.organizationId();
            Organization org = organizations.find(tx, id).orElseThrow();
            Map<String, Object> configs = new LinkedHashMap<>();
            configs.put("features", FeaturesResult.features(organizations.features(tx, id)));
            configs.put("quorum", org.rootQuorum());
            return configs;
        }));
    }
}
