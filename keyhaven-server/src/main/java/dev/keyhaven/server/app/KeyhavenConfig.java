package dev.keyhaven.server.app;

import dev.keyhaven.server.activity.TimestampStyle;
import dev.keyhaven.server.user.UserLimits;
import dev.keyhaven.server.mail.MailSettings;
import dev.keyhaven.server.oauth2.Oauth2Providers;
import dev.keyhaven.server.oidc.IssuerConfig;
import dev.keyhaven.server.webhook.WebhookSettings;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * Everything {@code serve} can be told.
 *
 * @param databaseUrl a JDBC URL; empty means the embedded SQLite store in the data directory
 * @param masterKeyFile the KEK file named by the operator; empty means {@code master.key} in the data directory,
 *        generated on first start
 * @param databasePoolSize 0 picks the store's default
 * @param webAuthnOrigins the origins passkey ceremonies may come from, or {@code *} for any
 * @param mail how mail leaves (SMTP, or the Maildir in the data directory), the sender and the email templates
 * @param webhooks how webhooks are signed and delivered
 * @param otp one-time passwords: the auth proxy's port, the SMS provider, the rate limits
 * @param oauth2Providers the OAuth 2.0 providers' token and userinfo endpoints and issuers
 * @param oidcIssuers the OIDC issuers whose ID tokens are trusted ({@code --oidc-issuers}); none by default
 */
public record KeyhavenConfig(Path dataDirectory, Optional<String> databaseUrl, Optional<Path> masterKeyFile,
        int databasePoolSize, String host,
        int port, int maxBodyBytes, List<String> corsOrigins, List<String> webAuthnOrigins,
        TimestampStyle activityTimestamps, UserLimits limits, Duration shutdownGrace, MailSettings mail,
        WebhookSettings webhooks, OtpSettings otp, Oauth2Providers oauth2Providers,
        List<IssuerConfig> oidcIssuers) {

    public static final int DEFAULT_MAX_BODY_BYTES = 1024 * 1024;

    public KeyhavenConfig {
        webAuthnOrigins = List.copyOf(webAuthnOrigins);
        oidcIssuers = List.copyOf(oidcIssuers);
    }

    /** Defaults for a data directory: embedded store, 127.0.0.1:8080. */
    public static KeyhavenConfig defaults(Path dataDirectory) {
        return new KeyhavenConfig(dataDirectory, Optional.empty(), Optional.empty(), 0, "127.0.0.1", 8080,
                DEFAULT_MAX_BODY_BYTES, List.of("*"), List.of("*"), TimestampStyle.STRING, UserLimits.DEFAULT,
                Duration.ofSeconds(10), MailSettings.none(), WebhookSettings.DEFAULT, OtpSettings.defaults(),
                Oauth2Providers.DEFAULT, List.of());
    }

    /** The KEK file: the one named, or {@code master.key} in the data directory. */
    public Path effectiveMasterKeyFile() {
        return masterKeyFile.orElseGet(() -> dataDirectory.resolve("master.key"));
    }

    public KeyhavenConfig withMasterKeyFile(Optional<Path> file) {
        return new KeyhavenConfig(dataDirectory, databaseUrl, file, databasePoolSize, host, port, maxBodyBytes,
                corsOrigins, webAuthnOrigins, activityTimestamps, limits, shutdownGrace, mail, webhooks, otp,
                oauth2Providers, oidcIssuers);
    }

    public String effectiveDatabaseUrl() {
        return databaseUrl.orElseGet(() -> dev.keyhaven.server.store.Database.embeddedUrl(dataDirectory));
    }

    public KeyhavenConfig withPort(int newPort) {
        return new KeyhavenConfig(dataDirectory, databaseUrl, masterKeyFile, databasePoolSize, host, newPort,
                maxBodyBytes, corsOrigins, webAuthnOrigins, activityTimestamps, limits, shutdownGrace, mail, webhooks,
                otp, oauth2Providers, oidcIssuers);
    }

    public KeyhavenConfig withDatabaseUrl(Optional<String> url) {
        return new KeyhavenConfig(dataDirectory, url, masterKeyFile, databasePoolSize, host, port, maxBodyBytes,
                corsOrigins, webAuthnOrigins, activityTimestamps, limits, shutdownGrace, mail, webhooks, otp,
                oauth2Providers, oidcIssuers);
    }

    public KeyhavenConfig withActivityTimestamps(TimestampStyle style) {
        return new KeyhavenConfig(dataDirectory, databaseUrl, masterKeyFile, databasePoolSize, host, port, maxBodyBytes,
                corsOrigins, webAuthnOrigins, style, limits, shutdownGrace, mail, webhooks, otp, oauth2Providers,
                oidcIssuers);
    }

    public KeyhavenConfig withLimits(UserLimits newLimits) {
        return new KeyhavenConfig(dataDirectory, databaseUrl, masterKeyFile, databasePoolSize, host, port, maxBodyBytes,
                corsOrigins, webAuthnOrigins, activityTimestamps, newLimits, shutdownGrace, mail, webhooks, otp,
                oauth2Providers, oidcIssuers);
    }

    public KeyhavenConfig withMaxBodyBytes(int bytes) {
        return new KeyhavenConfig(dataDirectory, databaseUrl, masterKeyFile, databasePoolSize, host, port, bytes,
                corsOrigins, webAuthnOrigins, activityTimestamps, limits, shutdownGrace, mail, webhooks, otp,
                oauth2Providers, oidcIssuers);
    }

    public KeyhavenConfig withMail(MailSettings settings) {
        return new KeyhavenConfig(dataDirectory, databaseUrl, masterKeyFile, databasePoolSize, host, port, maxBodyBytes,
                corsOrigins, webAuthnOrigins, activityTimestamps, limits, shutdownGrace, settings, webhooks, otp,
                oauth2Providers, oidcIssuers);
    }

    /** The Maildir mail goes to when no SMTP server is configured. */
    public Path maildir() {
        return dataDirectory.resolve("maildir");
    }

    /** The operator's email templates: the directory named, or {@code email-templates} in the data directory. */
    public Path effectiveTemplatesDirectory() {
        return mail.templatesDirectory().orElseGet(() -> dataDirectory.resolve("email-templates"));
    }

    public KeyhavenConfig withWebAuthnOrigins(List<String> origins) {
        return new KeyhavenConfig(dataDirectory, databaseUrl, masterKeyFile, databasePoolSize, host, port, maxBodyBytes,
                corsOrigins, origins, activityTimestamps, limits, shutdownGrace, mail, webhooks, otp, oauth2Providers,
                oidcIssuers);
    }

    public KeyhavenConfig withWebhooks(WebhookSettings settings) {
        return new KeyhavenConfig(dataDirectory, databaseUrl, masterKeyFile, databasePoolSize, host, port, maxBodyBytes,
                corsOrigins, webAuthnOrigins, activityTimestamps, limits, shutdownGrace, mail, settings, otp,
                oauth2Providers, oidcIssuers);
    }

    public KeyhavenConfig withOtp(OtpSettings settings) {
        return new KeyhavenConfig(dataDirectory, databaseUrl, masterKeyFile, databasePoolSize, host, port, maxBodyBytes,
                corsOrigins, webAuthnOrigins, activityTimestamps, limits, shutdownGrace, mail, webhooks, settings,
                oauth2Providers, oidcIssuers);
    }

    public KeyhavenConfig withOauth2Providers(Oauth2Providers providers) {
        return new KeyhavenConfig(dataDirectory, databaseUrl, masterKeyFile, databasePoolSize, host, port, maxBodyBytes,
                corsOrigins, webAuthnOrigins, activityTimestamps, limits, shutdownGrace, mail, webhooks, otp,
                providers, oidcIssuers);
    }

    public KeyhavenConfig withOidcIssuers(List<IssuerConfig> issuers) {
        return new KeyhavenConfig(dataDirectory, databaseUrl, masterKeyFile, databasePoolSize, host, port, maxBodyBytes,
                corsOrigins, webAuthnOrigins, activityTimestamps, limits, shutdownGrace, mail, webhooks, otp,
                oauth2Providers, issuers);
    }

    /** Where {@code --sms-provider file} appends messages. */
    public Path smsFile() {
        return dataDirectory.resolve("sms.log");
    }
}
