package dev.keyhaven.server.app;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * One-time passwords and the auth proxy: the proxy's port (empty: no proxy listener; 0 in tests: any free port),
 * the SMS provider, the init rate limits (per contact, per client address, in one sliding window), and the captcha
 * verification of the auth proxy (empty: captcha tokens are ignored).
 */
public record OtpSettings(
        OptionalInt authProxyPort,
        Sms sms,
        int initsPerContact,
        int initsPerAddress,
        Duration rateWindow,
        Optional<Captcha> captcha) {

    public static final int DEFAULT_AUTH_PROXY_PORT = 8090;

    /** Where SMS codes go. */
    public enum SmsProvider {
        NONE,
        TWILIO,
        FILE
    }

    /**
     * @param twilioBaseUrl Twilio's API root ({@code https://api.twilio.com}); tests point it at a local fake
     * @param twilioTokenFile a file holding the auth token (never on the command line)
     */
    public record Sms(
            SmsProvider provider,
            String twilioBaseUrl,
            String twilioAccount,
            Optional<Path> twilioTokenFile,
            String from) {
        public static Sms none() {
            return new Sms(SmsProvider.NONE, "https://api.twilio.com", "", Optional.empty(), "");
        }
    }

    /**
     * A Turnstile-compatible captcha verification: where tokens are checked, the site key browsers render the
     * widget with, and the secret paired with it (from a file or the environment, never the command line; never
     * shown: {@link #toString()} leaves it out).
     */
    public record Captcha(URI verifyUrl, String siteKey, String secret) {
        @Override
        public String toString() {
            return "Captcha[" + verifyUrl + ", site key " + siteKey + ", secret redacted]";
        }
    }

    /** No auth proxy listener (serve's {@code --auth-proxy-port} defaults to 8090), no SMS, the default limits. */
    public static OtpSettings defaults() {
        return new OtpSettings(OptionalInt.empty(), Sms.none(), 5, 50, Duration.ofMinutes(15), Optional.empty());
    }

    public OtpSettings withAuthProxyPort(OptionalInt port) {
        return new OtpSettings(port, sms, initsPerContact, initsPerAddress, rateWindow, captcha);
    }

    public OtpSettings withSms(Sms settings) {
        return new OtpSettings(authProxyPort, settings, initsPerContact, initsPerAddress, rateWindow, captcha);
    }

    public OtpSettings withRateLimits(int perContact, int perAddress, Duration window) {
        return new OtpSettings(authProxyPort, sms, perContact, perAddress, window, captcha);
    }

    public OtpSettings withCaptcha(Optional<Captcha> settings) {
        return new OtpSettings(authProxyPort, sms, initsPerContact, initsPerAddress, rateWindow, settings);
    }
}
