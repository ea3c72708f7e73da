package dev.keyhaven.server.authproxy;

import java.util.List;

/**
 * The auth proxy's route table, beside the API's ({@code http.Routes}): every path the auth proxy's listener serves,
 * spelled out here and nowhere else, with the class that implements it and whether it takes a captcha token. The
 * listener ({@code http.AuthProxyServer}) registers exactly these (each with its {@code OPTIONS} preflight), and the
 * OpenAPI document and docs/operations.md are generated from them.
 *
 * <p>An endpoint plugs in as one line: a path, its class, and a function from the admitted request
 * ({@link AuthProxyRequest}: configuration, body, client address) to the answer.
 */
public final class AuthProxyRoutes {
    private AuthProxyRoutes() {}

    static List<AuthProxyRoute> table(
            OtpInitEndpoint otpInit,
            OtpVerifyEndpoint otpVerify,
            OtpLoginEndpoint otpLogin,
            Oauth2AuthenticateEndpoint oauth2Authenticate,
            OauthLoginEndpoint oauthLogin,
            AccountEndpoint account,
            SignUp signUp,
            WalletKitConfigEndpoint walletKitConfig,
            WalletKitClientParamsEndpoint walletKitClientParams) {
        return List.of(
                AuthProxyRoute.captchaGuarded("/v1/otp_init", OtpInitEndpoint.class, otpInit),
                AuthProxyRoute.captchaGuarded("/v1/otp_init_v2", OtpInitEndpoint.class, otpInit),
                AuthProxyRoute.of("/v1/otp_verify", OtpVerifyEndpoint.class, otpVerify::plain),
                AuthProxyRoute.of("/v1/otp_verify_v2", OtpVerifyEndpoint.class, otpVerify::encrypted),
                AuthProxyRoute.of("/v1/otp_login", OtpLoginEndpoint.class, otpLogin::v1),
                AuthProxyRoute.of("/v1/otp_login_v2", OtpLoginEndpoint.class, otpLogin::v2),
                AuthProxyRoute.of("/v1/oauth2_authenticate", Oauth2AuthenticateEndpoint.class, oauth2Authenticate),
                AuthProxyRoute.of("/v1/oauth_login", OauthLoginEndpoint.class, oauthLogin),
                AuthProxyRoute.of("/v1/account", AccountEndpoint.class, account),
                // Captcha-guarded like otp_init: the clients send the token to both.
                AuthProxyRoute.captchaGuarded(
                        "/v1/signup", SignUp.class, r -> signUp.signUp(r.config(), r.body(), r.clientAddress(), false)),
                AuthProxyRoute.captchaGuarded(
                        "/v1/signup_v2",
                        SignUp.class,
                        r -> signUp.signUp(r.config(), r.body(), r.clientAddress(), true)),
                AuthProxyRoute.of("/v1/wallet_kit_config", WalletKitConfigEndpoint.class, walletKitConfig),
                AuthProxyRoute.of(
                        "/v1/wallet_kit_client_params", WalletKitClientParamsEndpoint.class, walletKitClientParams));
    }
}
