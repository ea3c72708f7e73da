package dev.keyhaven.server.http;

import dev.keyhaven.server.activity.ActivityQueries;
import dev.keyhaven.server.organization.OrganizationQueries;
import dev.keyhaven.server.policy.PolicyQueries;
import dev.keyhaven.server.privatekey.PrivateKeyQueries;
import dev.keyhaven.server.proof.ProofService;
import dev.keyhaven.server.tvc.TvcQueries;
import dev.keyhaven.server.user.UserQueries;
import dev.keyhaven.server.wallet.WalletQueries;
import java.util.ArrayList;
import java.util.List;

/**
 * The route table: every operation of the public API, by exact path. Submit operations are those with a
 * registered activity handler.
 */
final class Routes {
    private Routes() {
    }

    static List<Operation> operations(ApiServer.Services services) {
        OrganizationQueries organizations = services.organizationQueries();
        UserQueries users = services.userQueries();
        WalletQueries wallets = services.walletQueries();
        PrivateKeyQueries privateKeys = services.privateKeyQueries();
        ActivityQueries activities = services.activityQueries();
        PolicyQueries policies = services.policyQueries();
        ProofService proofs = services.proofQueries();
        TvcQueries tvc = services.tvcQueries();
        List<Operation> operations = new ArrayList<>(List.of(
                Operation.queryWithSubOrganizationLookup("whoami", organizations::whoami),
                Operation.query("get_organization", organizations::getOrganization),
                Operation.query("get_user", users::getUser),
                Operation.query("list_users", users::listUsers),
                Operation.query("get_api_keys", users::getApiKeys),
                Operation.query("get_api_key", users::getApiKey),
                Operation.query("get_authenticators", users::getAuthenticators),
                Operation.query("get_authenticator", users::getAuthenticator),
                Operation.query("list_user_tags", users::listUserTags),
                Operation.query("list_wallets", wallets::listWallets),
                Operation.query("get_wallet", wallets::getWallet),
                Operation.query("get_wallet_account", wallets::getWalletAccount),
                Operation.queryOnState("list_wallet_accounts", wallets::listWalletAccounts),
                Operation.query("list_private_keys", privateKeys::listPrivateKeys),
                Operation.query("get_private_key", privateKeys::getPrivateKey),
                Operation.query("list_private_key_tags", privateKeys::listPrivateKeyTags),
                Operation.query("get_activity", activities::getActivity),
                Operation.query("list_activities", activities::listActivities),
                Operation.query("get_policy_evaluations", activities::getPolicyEvaluations),
                Operation.query("list_policies", policies::listPolicies),
                Operation.query("get_policy", policies::getPolicy),
                Operation.query("list_app_proofs", proofs::listAppProofs),
                Operation.query("get_boot_proof", proofs::getBootProof),
                Operation.query("get_latest_boot_proof", proofs::getLatestBootProof),
                Operation.query("get_tvc_app", tvc::getTvcApp),
                Operation.query("list_tvc_apps", tvc::listTvcApps),
                Operation.query("get_tvc_deployment", tvc::getTvcDeployment),
                Operation.query("list_tvc_app_deployments", tvc::listTvcAppDeployments),
                Operation.query("list_webhook_endpoints", services.webhookQueries()::listWebhookEndpoints),
                Operation.query("list_webhook_deliveries", services.webhookQueries()::listWebhookDeliveries),
                Operation.query("get_oauth2_credential", services.oauth2Queries()::getOauth2Credential),
                Operation.query("list_oauth2_credentials", services.oauth2Queries()::listOauth2Credentials),
                Operation.query("get_oauth_providers", users::getOauthProviders),
                Operation.query("get_smart_contract_interface",
                        services.smartContractInterfaceQueries()::getSmartContractInterface),
                Operation.query("list_smart_contract_interfaces",
                        services.smartContractInterfaceQueries()::listSmartContractInterfaces)));
        services.registry().operations().forEach(name -> operations.add(Operation.submit(name)));
        return List.copyOf(operations);
    }
}
