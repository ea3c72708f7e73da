package dev.keyhaven.server.app;

import dev.keyhaven.server.activity.TimestampStyle;
import dev.keyhaven.server.http.ConnectionLimits;
import dev.keyhaven.server.user.UserLimits;
import dev.keyhaven.server.mail.MailSettings;
import dev.keyhaven.server.oauth2.Oauth2Providers;
import dev.keyhaven.server.oidc.IssuerConfig;
import dev.keyhaven.server.webhook.WebhookSettings;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

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
 * @param connections the listeners' deadlines and connection cap (0: derived from the file-descriptor limit)
 */
public record KeyhavenConfig(Path dataDirectory, Optional<String> databaseUrl, Optional<Path> masterKeyFile,
        int databasePoolSize, String host,
        int port, int maxBodyBytes, List<String> corsOrigins, List<String> webAuthnOrigins,
        TimestampStyle activityTimestamps, UserLimits limits, Duration shutdownGrace, MailSettings mail,
        WebhookSettings webhooks, OtpSettings otp, Oauth2Providers oauth2Providers,
        List<IssuerConfig> oidcIssuers, ConnectionLimits connections) {

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
                Oauth2Providers.DEFAULT, List.of(), ConnectionLimits.DEFAULT);
    }

    /** The KEK file: the one named, or {@code master.key} in the data directory. */
    public Path effectiveMasterKeyFile() {
        return masterKeyFile.orElseGet(() -> dataDirectory.resolve("master.key"));
    }

    public KeyhavenConfig withMasterKeyFile(Optional<Path> file) {
        return with(copy -> copy.masterKeyFile = file);
    }

    public String effectiveDatabaseUrl() {
        return databaseUrl.orElseGet(() -> dev.keyhaven.server.store.Database.embeddedUrl(dataDirectory));
    }

    public KeyhavenConfig withPort(int newPort) {
        return with(copy -> copy.port = newPort);
    }

    public KeyhavenConfig withDatabaseUrl(Optional<String> url) {
        return with(copy -> copy.databaseUrl = url);
    }

    public KeyhavenConfig withActivityTimestamps(TimestampStyle style) {
        return with(copy -> copy.activityTimestamps = style);
    }

    public KeyhavenConfig withLimits(UserLimits newLimits) {
        return with(copy -> copy.limits = newLimits);
    }

    public KeyhavenConfig withMaxBodyBytes(int bytes) {
        return with(copy -> copy.maxBodyBytes = bytes);
    }

    public KeyhavenConfig withMail(MailSettings settings) {
        return with(copy -> copy.mail = settings);
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
        return with(copy -> copy.webAuthnOrigins = origins);
    }

    public KeyhavenConfig withWebhooks(WebhookSettings settings) {
        return with(copy -> copy.webhooks = settings);
    }

    public KeyhavenConfig withOtp(OtpSettings settings) {
        return with(copy -> copy.otp = settings);
    }

    public KeyhavenConfig withOauth2Providers(Oauth2Providers providers) {
        return with(copy -> copy.oauth2Providers = providers);
    }

    public KeyhavenConfig withOidcIssuers(List<IssuerConfig> issuers) {
        return with(copy -> copy.oidcIssuers = issuers);
    }

    public KeyhavenConfig withConnections(ConnectionLimits limits) {
        return with(copy -> copy.connections = limits);
    }

    /** This configuration with one change: {@code change} sets fields of a mutable copy. */
    private KeyhavenConfig with(Consumer<Copy> change) {
        Copy copy = new Copy(this);
        change.accept(copy);
        return copy.build();
    }

    /** The components as fields, so that each with… method names only the one it changes. */
    private static final class Copy {
        private Path dataDirectory;
        private Optional<String> databaseUrl;
        private Optional<Path> masterKeyFile;
        private int databasePoolSize;
        private String host;
        private int port;
        private int maxBodyBytes;
        private List<String> corsOrigins;
        private List<String> webAuthnOrigins;
        private TimestampStyle activityTimestamps;
        private UserLimits limits;
        private Duration shutdownGrace;
        private MailSettings mail;
        private WebhookSettings webhooks;
        private OtpSettings otp;
        private Oauth2Providers oauth2Providers;
        private List<IssuerConfig> oidcIssuers;
        private ConnectionLimits connections;

        Copy(KeyhavenConfig config) {
            dataDirectory = config.dataDirectory;
            databaseUrl = config.databaseUrl;
            masterKeyFile = config.masterKeyFile;
            databasePoolSize = config.databasePoolSize;
            host = config.host;
            port = config.port;
            maxBodyBytes = config.maxBodyBytes;
            corsOrigins = config.corsOrigins;
            webAuthnOrigins = config.webAuthnOrigins;
            activityTimestamps = config.activityTimestamps;
            limits = config.limits;
            shutdownGrace = config.shutdownGrace;
            mail = config.mail;
            webhooks = config.webhooks;
            otp = config.otp;
            oauth2Providers = config.oauth2Providers;
            oidcIssuers = config.oidcIssuers;
            connections = config.connections;
        }

        KeyhavenConfig build() {
            return new KeyhavenConfig(dataDirectory, databaseUrl, masterKeyFile, databasePoolSize, host, port,
                    maxBodyBytes, corsOrigins, webAuthnOrigins, activityTimestamps, limits, shutdownGrace, mail,
                    webhooks, otp, oauth2Providers, oidcIssuers, connections);
        }
    }

    /** Where {@code --sms-provider file} appends messages. */
    public Path smsFile() {
        return dataDirectory.resolve("sms.log");
    }
}
