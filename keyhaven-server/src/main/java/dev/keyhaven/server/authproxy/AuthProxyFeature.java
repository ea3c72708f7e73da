package dev.keyhaven.server.authproxy;

import dev.keyhaven.server.activity.ActivityHandler;
import dev.keyhaven.server.api.Ids;
import dev.keyhaven.server.auth.CallerDirectory;
import dev.keyhaven.server.oauth2.Oauth2Authenticator;
import dev.keyhaven.server.oauthlogin.OauthLogin;
import dev.keyhaven.server.oidc.OidcVerifier;
import dev.keyhaven.server.organization.SubOrganizationCreator;
import dev.keyhaven.server.otp.OtpService;
import dev.keyhaven.server.otp.RateLimiter;
import dev.keyhaven.server.recovery.CodeMail;
import dev.keyhaven.server.state.StateVersions;
import dev.keyhaven.server.tx.Transactor;
import dev.keyhaven.server.user.AttestationVerifier;
import dev.keyhaven.server.wallet.WalletCreator;
import java.time.Clock;
import java.util.List;

/**
 * The auth proxy assembled: its per-organization configurations ({@code update_auth_proxy_config}, and what
 * {@code init} and the CLI write), and the proxy that signs end users up and in on its own listener.
 */
public final class AuthProxyFeature {
    private final AuthProxyConfigs configs;
    private final AuthProxy proxy;
    private final List<ActivityHandler<?>> handlers;

    /** What a sign-up checks its credentials with, and where it creates the optional wallet. */
    public record SignUpCredentials(
            AttestationVerifier attestations, OidcVerifier oidc, CallerDirectory directory, WalletCreator wallets) {}

    /**
     * @param signInsPerAddress counts the OAuth sign-ins and sign-ups of each client address: each one may create a
     *        sub-organization or call the provider, and none is stamped
     * @param signUpCredentials what {@code /v1/signup_v2} checks credentials with, and its wallet creator
     * @param credentials finds the holders of API keys and passkeys ({@code /v1/account})
     * @param captcha the deployment's captcha verification ({@link CaptchaVerifier#NONE}: tokens are ignored)
     */
    public AuthProxyFeature(
            Transactor transactor,
            AuthProxyConfigRepository configRepository,
            OtpService otps,
            CodeMail mail,
            SubOrganizationCreator subOrganizations,
            StateVersions versions,
            Oauth2Authenticator oauth2,
            OauthLogin oauthLogins,
            RateLimiter signInsPerAddress,
            SignUpCredentials signUpCredentials,
            CredentialOwners credentials,
            CaptchaVerifier captcha,
            Clock clock,
            Ids ids) {
        this.configs = new AuthProxyConfigs(transactor, configRepository);
        LoginSignUps signUps = new LoginSignUps(subOrganizations, clock, ids);
        SignUp signUp = new SignUp(
                otps,
                subOrganizations,
                signUpCredentials.wallets(),
                signUpCredentials.attestations(),
                signUpCredentials.oidc(),
                signUpCredentials.directory(),
                transactor,
                versions,
                signInsPerAddress,
                clock,
                ids);
        this.proxy = new AuthProxy(
                configs,
                captcha,
                AuthProxyRoutes.table(
                        new OtpInitEndpoint(otps, mail, transactor, clock, ids),
                        new OtpVerifyEndpoint(otps, transactor, clock, ids),
                        new OtpLoginEndpoint(otps, signUps, transactor, versions, clock, ids),
                        new Oauth2AuthenticateEndpoint(oauth2, signInsPerAddress),
                        new OauthLoginEndpoint(
                                oauthLogins, signUps, signInsPerAddress, transactor, versions, clock, ids),
                        new AccountEndpoint(otps, oauthLogins, credentials, transactor, clock),
                        signUp,
                        new WalletKitConfigEndpoint(),
                        new WalletKitClientParamsEndpoint(captcha)));
        this.handlers = List.of(new UpdateAuthProxyConfigHandler(configs));
    }

    public List<ActivityHandler<?>> handlers() {
        return handlers;
    }

    public AuthProxyConfigs configs() {
        return configs;
    }

    public AuthProxy proxy() {
        return proxy;
    }
}
