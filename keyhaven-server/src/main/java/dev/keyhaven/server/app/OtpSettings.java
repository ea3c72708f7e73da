package dev.keyhaven.server.app;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * One-time passwords and the auth proxy: the proxy's port (empty: no proxy listener; 0 in tests: any free port),
 * the SMS provider, and the init rate limits (per contact, per client address, in one sliding window).
 */
public record OtpSettings(
        OptionalInt authProxyPort, Sms sms, int initsPerContact, int initsPerAddress, Duration rateWindow) {

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

    /** No auth proxy listener (serve's {@code --auth-proxy-port} defaults to 8090), no SMS, the default limits. */
    public static OtpSettings defaults() {
        return new OtpSettings(OptionalInt.empty(), Sms.none(), 5, 50, Duration.ofMinutes(15));
    }

    public OtpSettings withAuthProxyPort(OptionalInt port) {
        return new OtpSettings(port, sms, initsPerContact, initsPerAddress, rateWindow);
    }

    public OtpSettings withSms(Sms settings) {
        return new OtpSettings(authProxyPort, settings, initsPerContact, initsPerAddress, rateWindow);
    }

    public OtpSettings withRateLimits(int perContact, int perAddress, Duration window) {
        return new OtpSettings(authProxyPort, sms, perContact, perAddress, window);
    }
}
