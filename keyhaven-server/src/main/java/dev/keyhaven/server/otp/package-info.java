/**
 * One-time passwords (turnkey-api.md §5.3): {@code init_otp} (V3), {@code verify_otp} (V2) and {@code otp_login}
 * (V2) in the main API, and {@link dev.keyhaven.server.otp.OtpService}, the core the auth proxy runs too. Codes
 * come from {@code SecureRandom}, are stored only as keyed hashes ({@code OtpKeys}, over custody's handles), used once, expire, and
 * die after {@link dev.keyhaven.server.otp.OtpService#MAX_ATTEMPTS} wrong attempts; inits are rate-limited per
 * contact and per client address ({@link dev.keyhaven.server.otp.RateLimiter}). Email goes through
 * {@code recovery.CodeMail}, SMS through {@code sms.SmsSender}; sessions through {@code session.Sessions}.
 */
package dev.keyhaven.server.otp;
