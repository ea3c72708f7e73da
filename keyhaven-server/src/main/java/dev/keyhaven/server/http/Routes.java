package dev.keyhaven.server.http;

import dev.keyhaven.server.activity.ActivityQueries;
import dev.keyhaven.server.audit.AuditQueries;
import dev.keyhaven.server.oauth2.Oauth2CredentialQueries;
import dev.keyhaven.server.organization.OrganizationQueries;
import dev.keyhaven.server.organization.SubOrganizationQueries;
import dev.keyhaven.server.policy.CheckPolicyQuery;
import dev.keyhaven.server.policy.DryRunPoliciesQuery;
import dev.keyhaven.server.policy.PolicyQueries;
import dev.keyhaven.server.privatekey.PrivateKeyQueries;
import dev.keyhaven.server.proof.ProofService;
import dev.keyhaven.server.smartcontract.SmartContractInterfaceQueries;
import dev.keyhaven.server.tvc.TvcQueries;
import dev.keyhaven.server.user.UserQueries;
import dev.keyhaven.server.wallet.WalletQueries;
import dev.keyhaven.server.webhook.WebhookQueries;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The route table: every operation of the public API, by exact path, with the class that implements it. Submit
 * operations are those with a registered activity handler.
 */
final class Routes {
    /**
     * The logins that may be addressed to a parent by a user of one of its sub-organizations: Turnkey resolves the
     * sub-organization from the credential (turnkey-clients.md, auth proxy: a wallet's or passkey's
     * {@code stamp_login} is sent with the parent's id).
     */
    private static final Set<String> SUB_ORGANIZATION_LOGINS = Set.of("stamp_login");

    private Routes() {}

    static List<Operation> operations(ApiServer.Services services) {
        OrganizationQueries organizations = services.organizationQueries();
        SubOrganizationQueries subOrganizations = services.subOrganizationQueries();
        UserQueries users = services.userQueries();
        WalletQueries wallets = services.walletQueries();
        PrivateKeyQueries privateKeys = services.privateKeyQueries();
        ActivityQueries activities = services.activityQueries();
        PolicyQueries policies = services.policyQueries();
        ProofService proofs = services.proofQueries();
        TvcQueries tvc = services.tvcQueries();
        WebhookQueries webhooks = services.webhookQueries();
        Oauth2CredentialQueries oauth2 = services.oauth2Queries();
        SmartContractInterfaceQueries contracts = services.smartContractInterfaceQueries();
        List<Operation> operations = new ArrayList<>(List.of(
                Operation.queryOnStateWithSubOrganizationLookup(
                        "whoami", OrganizationQueries.class, organizations::whoami),
                Operation.query("get_organization", OrganizationQueries.class, organizations::getOrganization),
                Operation.query(
                        "get_organization_configs", OrganizationQueries.class, organizations::getOrganizationConfigs),
                Operation.query("list_suborgs", SubOrganizationQueries.class, subOrganizations::listSuborgs),
                Operation.query(
                        "list_verified_suborgs", SubOrganizationQueries.class, subOrganizations::listVerifiedSuborgs),
                Operation.query("get_user", UserQueries.class, users::getUser),
                Operation.query("list_users", UserQueries.class, users::listUsers),
                Operation.query("get_api_keys", UserQueries.class, users::getApiKeys),
                Operation.query("get_api_key", UserQueries.class, users::getApiKey),
                Operation.query("get_authenticators", UserQueries.class, users::getAuthenticators),
                Operation.query("get_authenticator", UserQueries.class, users::getAuthenticator),
                Operation.query("list_user_tags", UserQueries.class, users::listUserTags),
                Operation.query("list_wallets", WalletQueries.class, wallets::listWallets),
                Operation.query("get_wallet", WalletQueries.class, wallets::getWallet),
                Operation.query("get_wallet_account", WalletQueries.class, wallets::getWalletAccount),
                Operation.queryOnState("list_wallet_accounts", WalletQueries.class, wallets::listWalletAccounts),
                Operation.query("list_private_keys", PrivateKeyQueries.class, privateKeys::listPrivateKeys),
                Operation.query("get_private_key", PrivateKeyQueries.class, privateKeys::getPrivateKey),
                Operation.query("list_private_key_tags", PrivateKeyQueries.class, privateKeys::listPrivateKeyTags),
                Operation.query("get_activity", ActivityQueries.class, activities::getActivity),
                Operation.query("list_activities", ActivityQueries.class, activities::listActivities),
                Operation.query("get_policy_evaluations", ActivityQueries.class, activities::getPolicyEvaluations),
                Operation.query("list_policies", PolicyQueries.class, policies::listPolicies),
                Operation.query("get_policy", PolicyQueries.class, policies::getPolicy),
                Operation.keyhavenQuery("check_policy", CheckPolicyQuery.class, CheckPolicyQuery::checkPolicy),
                Operation.keyhavenQuery(
                        "dry_run_policies", DryRunPoliciesQuery.class, services.policyDryRun()::dryRunPolicies),
                Operation.query("list_app_proofs", ProofService.class, proofs::listAppProofs),
                Operation.query("get_boot_proof", ProofService.class, proofs::getBootProof),
                Operation.query("get_latest_boot_proof", ProofService.class, proofs::getLatestBootProof),
                Operation.query("get_tvc_app", TvcQueries.class, tvc::getTvcApp),
                Operation.query("list_tvc_apps", TvcQueries.class, tvc::listTvcApps),
                Operation.query("get_tvc_deployment", TvcQueries.class, tvc::getTvcDeployment),
                Operation.query("list_tvc_app_deployments", TvcQueries.class, tvc::listTvcAppDeployments),
                Operation.query("list_webhook_endpoints", WebhookQueries.class, webhooks::listWebhookEndpoints),
                Operation.query("list_webhook_deliveries", WebhookQueries.class, webhooks::listWebhookDeliveries),
                Operation.query("get_audit_log", AuditQueries.class, services.auditQueries()::getAuditLog),
                Operation.query("get_oauth2_credential", Oauth2CredentialQueries.class, oauth2::getOauth2Credential),
                Operation.query(
                        "list_oauth2_credentials", Oauth2CredentialQueries.class, oauth2::listOauth2Credentials),
                Operation.query("get_oauth_providers", UserQueries.class, users::getOauthProviders),
                Operation.query(
                        "get_smart_contract_interface",
                        SmartContractInterfaceQueries.class,
                        contracts::getSmartContractInterface),
                Operation.query(
                        "list_smart_contract_interfaces",
                        SmartContractInterfaceQueries.class,
                        contracts::listSmartContractInterfaces)));
        services.registry().operations().forEach(name -> {
            Class<?> implementation =
                    services.registry().forOperation(name).orElseThrow().getClass();
            operations.add(
                    SUB_ORGANIZATION_LOGINS.contains(name)
                            ? Operation.submitWithSubOrganizationLookup(name, implementation)
                            : Operation.submit(name, implementation));
        });
        return List.copyOf(operations);
    }
}
