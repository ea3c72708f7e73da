package dev.keyhaven.server.app;

import dev.keyhaven.server.activity.ActivityRepository;
import dev.keyhaven.server.auth.CallerDirectory;
import dev.keyhaven.server.authproxy.AuthProxyConfigRepository;
import dev.keyhaven.server.custody.CustodyRepository;
import dev.keyhaven.server.custody.DataKeyRepository;
import dev.keyhaven.server.keyimport.ImportTargetRepository;
import dev.keyhaven.server.oauth2.Oauth2CredentialRepository;
import dev.keyhaven.server.organization.OrganizationRepository;
import dev.keyhaven.server.otp.OtpRepository;
import dev.keyhaven.server.policy.PolicyRepository;
import dev.keyhaven.server.privatekey.PrivateKeyRepository;
import dev.keyhaven.server.recovery.RecoveryCredentialRepository;
import dev.keyhaven.server.smartcontract.SmartContractInterfaceRepository;
import dev.keyhaven.server.state.StateVersions;
import dev.keyhaven.server.store.JdbcActivityRepository;
import dev.keyhaven.server.store.JdbcAuditLog;
import dev.keyhaven.server.store.JdbcAuthProxyConfigRepository;
import dev.keyhaven.server.store.JdbcCallerDirectory;
import dev.keyhaven.server.store.JdbcCustodyRepository;
import dev.keyhaven.server.store.JdbcDataKeyRepository;
import dev.keyhaven.server.store.JdbcImportTargetRepository;
import dev.keyhaven.server.store.JdbcOauth2CredentialRepository;
import dev.keyhaven.server.store.JdbcOauthProviderRepository;
import dev.keyhaven.server.store.JdbcOrganizationRepository;
import dev.keyhaven.server.store.JdbcOtpRepository;
import dev.keyhaven.server.store.JdbcPasskeyRepository;
import dev.keyhaven.server.store.JdbcPolicyRepository;
import dev.keyhaven.server.store.JdbcPrivateKeyRepository;
import dev.keyhaven.server.store.JdbcProofRepository;
import dev.keyhaven.server.store.JdbcRecoveryCredentialRepository;
import dev.keyhaven.server.store.JdbcSmartContractInterfaceRepository;
import dev.keyhaven.server.store.JdbcStateVersions;
import dev.keyhaven.server.store.JdbcTvcRepository;
import dev.keyhaven.server.store.JdbcUserRepository;
import dev.keyhaven.server.store.JdbcWalletRepository;
import dev.keyhaven.server.store.JdbcWebhookRepository;
import dev.keyhaven.server.tvc.TvcRepository;
import dev.keyhaven.server.user.OauthProviderRepository;
import dev.keyhaven.server.user.UserRepository;
import dev.keyhaven.server.wallet.WalletRepository;
import dev.keyhaven.server.webauthn.PasskeyRepository;
import dev.keyhaven.server.webhook.WebhookRepository;
import tools.jackson.databind.ObjectMapper;

/**
 * The store's repositories, one of each: the one place that names their JDBC implementations. Each is stateless
 * (every call gets its transaction), so features share them. The features see only the interfaces they declare.
 */
final class Repositories {
    final OrganizationRepository organizations = new JdbcOrganizationRepository();
    final UserRepository users = new JdbcUserRepository();
    final OauthProviderRepository oauthProviders = new JdbcOauthProviderRepository();
    final PasskeyRepository passkeys = new JdbcPasskeyRepository();
    final CallerDirectory callers = new JdbcCallerDirectory();
    final CustodyRepository custody = new JdbcCustodyRepository();
    final DataKeyRepository dataKeys = new JdbcDataKeyRepository();
    final WalletRepository wallets = new JdbcWalletRepository();
    final PrivateKeyRepository privateKeys = new JdbcPrivateKeyRepository();
    final PolicyRepository policies = new JdbcPolicyRepository();
    final TvcRepository tvc = new JdbcTvcRepository();
    final ImportTargetRepository importTargets = new JdbcImportTargetRepository();
    final RecoveryCredentialRepository recoveryCredentials = new JdbcRecoveryCredentialRepository();
    final OtpRepository otps = new JdbcOtpRepository();
    final AuthProxyConfigRepository authProxyConfigs = new JdbcAuthProxyConfigRepository();
    final Oauth2CredentialRepository oauth2Credentials = new JdbcOauth2CredentialRepository();
    final SmartContractInterfaceRepository contractInterfaces = new JdbcSmartContractInterfaceRepository();
    /** The server identity and the boot proofs it signs. */
    final JdbcProofRepository proofs = new JdbcProofRepository();

    final StateVersions stateVersions = new JdbcStateVersions();
    /** The tamper-evident activity log, which the activity repository appends to. */
    final JdbcAuditLog audit = new JdbcAuditLog();

    final ActivityRepository activities;
    final WebhookRepository webhooks;

    Repositories(ObjectMapper json) {
        this.activities = new JdbcActivityRepository(json, audit);
        this.webhooks = new JdbcWebhookRepository(json);
    }
}
