/**
 * The auth proxy: per-organization configurations ({@link dev.keyhaven.server.authproxy.AuthProxyConfig}: allowed
 * origins, channels, code shape and lifetimes, app name, email template, sign-up), the activity that creates and
 * changes them ({@code update_auth_proxy_config}, Keyhaven's own shape), and
 * {@link dev.keyhaven.server.authproxy.AuthProxy}, what the second listener ({@code http.AuthProxyServer}) runs for
 * {@code /v1/otp_init(_v2)}, {@code /v1/otp_verify(_v2)}, {@code /v1/otp_login(_v2)}: the OTP flow of
 * {@code otp.OtpService} in the config's organization, each step in one write transaction.
 */
package dev.keyhaven.server.authproxy;
