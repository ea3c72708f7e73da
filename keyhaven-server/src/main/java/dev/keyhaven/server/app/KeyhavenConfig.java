package dev.keyhaven.server.app;

import dev.keyhaven.server.activity.TimestampStyle;
import dev.keyhaven.server.custody.KekLocator;
import dev.keyhaven.server.http.ConnectionLimits;
import dev.keyhaven.server.mail.MailSettings;
import dev.keyhaven.server.oauth2.Oauth2Providers;
import dev.keyhaven.server.oidc.IssuerConfig;
import dev.keyhaven.server.user.UserLimits;
import dev.keyhaven.server.webhook.WebhookSettings;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * Everything {@code serve} can be told. Built with {@link #builder(Path)} (defaults: the embedded store,
 * 127.0.0.1:8080), whose setters name each option and refuse a bad value at once; {@link #toBuilder()} and the
 * {@code with…} methods make a changed copy.
 */
public final class KeyhavenConfig {

    public static final int DEFAULT_MAX_BODY_BYTES = 1024 * 1024;

    private final Path dataDirectory;
    private final Optional<String> databaseUrl;
    private final Optional<Path> masterKeyFile;
    private final Optional<KekLocator.Pkcs11> hsmKek;
    private final int databasePoolSize;
    private final String host;
    private final int port;
    private final int maxBodyBytes;
    private final List<String> corsOrigins;
    private final boolean console;
    private final List<String> webAuthnOrigins;
    private final TimestampStyle activityTimestamps;
    private final UserLimits limits;
    private final Duration shutdownGrace;
    private final MailSettings mail;
    private final WebhookSettings webhooks;
    private final OtpSettings otp;
    private final Oauth2Providers oauth2Providers;
    private final List<IssuerConfig> oidcIssuers;
    private final ConnectionLimits connections;

    private KeyhavenConfig(Builder builder) {
        this.dataDirectory = builder.dataDirectory;
        this.databaseUrl = builder.databaseUrl;
        this.masterKeyFile = builder.masterKeyFile;
        this.hsmKek = builder.hsmKek;
        this.databasePoolSize = builder.databasePoolSize;
        this.host = builder.host;
        this.port = builder.port;
        this.maxBodyBytes = builder.maxBodyBytes;
        this.corsOrigins = builder.corsOrigins;
        this.console = builder.console;
        this.webAuthnOrigins = builder.webAuthnOrigins;
        this.activityTimestamps = builder.activityTimestamps;
        this.limits = builder.limits;
        this.shutdownGrace = builder.shutdownGrace;
        this.mail = builder.mail;
        this.webhooks = builder.webhooks;
        this.otp = builder.otp;
        this.oauth2Providers = builder.oauth2Providers;
        this.oidcIssuers = builder.oidcIssuers;
        this.connections = builder.connections;
    }

    /** A builder with the defaults, for a data directory. */
    public static Builder builder(Path dataDirectory) {
        return new Builder(dataDirectory);
    }

    /** Defaults for a data directory: embedded store, 127.0.0.1:8080. */
    public static KeyhavenConfig defaults(Path dataDirectory) {
        return builder(dataDirectory).build();
    }

    /** A builder holding this configuration. */
    public Builder toBuilder() {
        Builder builder = new Builder(dataDirectory);
        builder.databaseUrl(databaseUrl);
        builder.masterKeyFile(masterKeyFile);
        builder.hsmKek(hsmKek);
        builder.databasePoolSize(databasePoolSize);
        builder.host(host);
        builder.port(port);
        builder.maxBodyBytes(maxBodyBytes);
        builder.corsOrigins(corsOrigins);
        builder.console(console);
        builder.webAuthnOrigins(webAuthnOrigins);
        builder.activityTimestamps(activityTimestamps);
        builder.limits(limits);
        builder.shutdownGrace(shutdownGrace);
        builder.mail(mail);
        builder.webhooks(webhooks);
        builder.otp(otp);
        builder.oauth2Providers(oauth2Providers);
        builder.oidcIssuers(oidcIssuers);
        builder.connections(connections);
        return builder;
    }

    public Path dataDirectory() {
        return dataDirectory;
    }

    /** A JDBC URL; empty means the embedded SQLite store in the data directory. */
    public Optional<String> databaseUrl() {
        return databaseUrl;
    }

    /**
     * The KEK file named by the operator; empty means {@code master.key} in the data directory, generated on first
     * start.
     */
    public Optional<Path> masterKeyFile() {
        return masterKeyFile;
    }

    /** The KEK on a PKCS#11 token ({@code --kek pkcs11}); empty means a file KEK ({@link #effectiveMasterKeyFile}). */
    public Optional<KekLocator.Pkcs11> hsmKek() {
        return hsmKek;
    }

    /** 0 picks the store's default. */
    public int databasePoolSize() {
        return databasePoolSize;
    }

    public String host() {
        return host;
    }

    /** 0 to 65535; 0 picks a free port. */
    public int port() {
        return port;
    }

    /** The largest request body accepted. */
    public int maxBodyBytes() {
        return maxBodyBytes;
    }

    public List<String> corsOrigins() {
        return corsOrigins;
    }

    /** Whether the API listener serves the operator console at {@code /console}. */
    public boolean console() {
        return console;
    }

    /** The origins passkey ceremonies may come from, or {@code *} for any. */
    public List<String> webAuthnOrigins() {
        return webAuthnOrigins;
    }

    public TimestampStyle activityTimestamps() {
        return activityTimestamps;
    }

    public UserLimits limits() {
        return limits;
    }

    public Duration shutdownGrace() {
        return shutdownGrace;
    }

    /** How mail leaves (SMTP, or the Maildir in the data directory), the sender and the email templates. */
    public MailSettings mail() {
        return mail;
    }

    /** How webhooks are signed and delivered. */
    public WebhookSettings webhooks() {
        return webhooks;
    }

    /** One-time passwords: the auth proxy's port, the SMS provider, the rate limits. */
    public OtpSettings otp() {
        return otp;
    }

    /** The OAuth 2.0 providers' token and userinfo endpoints and issuers. */
    public Oauth2Providers oauth2Providers() {
        return oauth2Providers;
    }

    /** The OIDC issuers whose ID tokens are trusted ({@code --oidc-issuers}); none by default. */
    public List<IssuerConfig> oidcIssuers() {
        return oidcIssuers;
    }

    /** The listeners' deadlines and connection cap (0: derived from the file-descriptor limit). */
    public ConnectionLimits connections() {
        return connections;
    }

    /** The KEK file: the one named, or {@code master.key} in the data directory. */
    public Path effectiveMasterKeyFile() {
        return masterKeyFile.orElseGet(() -> dataDirectory.resolve("master.key"));
    }

    public String effectiveDatabaseUrl() {
        return databaseUrl.orElseGet(() -> dev.keyhaven.server.store.Database.embeddedUrl(dataDirectory));
    }

    /** The Maildir mail goes to when no SMTP server is configured. */
    public Path maildir() {
        return dataDirectory.resolve("maildir");
    }

    /** The operator's email templates: the directory named, or {@code email-templates} in the data directory. */
    public Path effectiveTemplatesDirectory() {
        return mail.templatesDirectory().orElseGet(() -> dataDirectory.resolve("email-templates"));
    }

    /** Where {@code --sms-provider file} appends messages. */
    public Path smsFile() {
        return dataDirectory.resolve("sms.log");
    }

    public KeyhavenConfig withMasterKeyFile(Optional<Path> value) {
        return with(builder -> builder.masterKeyFile(value));
    }

    public KeyhavenConfig withHsmKek(Optional<KekLocator.Pkcs11> value) {
        return with(builder -> builder.hsmKek(value));
    }

    public KeyhavenConfig withPort(int value) {
        return with(builder -> builder.port(value));
    }

    public KeyhavenConfig withDatabaseUrl(Optional<String> value) {
        return with(builder -> builder.databaseUrl(value));
    }

    public KeyhavenConfig withActivityTimestamps(TimestampStyle value) {
        return with(builder -> builder.activityTimestamps(value));
    }

    public KeyhavenConfig withLimits(UserLimits value) {
        return with(builder -> builder.limits(value));
    }

    public KeyhavenConfig withMaxBodyBytes(int value) {
        return with(builder -> builder.maxBodyBytes(value));
    }

    public KeyhavenConfig withMail(MailSettings value) {
        return with(builder -> builder.mail(value));
    }

    public KeyhavenConfig withWebAuthnOrigins(List<String> value) {
        return with(builder -> builder.webAuthnOrigins(value));
    }

    public KeyhavenConfig withWebhooks(WebhookSettings value) {
        return with(builder -> builder.webhooks(value));
    }

    public KeyhavenConfig withOtp(OtpSettings value) {
        return with(builder -> builder.otp(value));
    }

    public KeyhavenConfig withOauth2Providers(Oauth2Providers value) {
        return with(builder -> builder.oauth2Providers(value));
    }

    public KeyhavenConfig withOidcIssuers(List<IssuerConfig> value) {
        return with(builder -> builder.oidcIssuers(value));
    }

    public KeyhavenConfig withConnections(ConnectionLimits value) {
        return with(builder -> builder.connections(value));
    }

    /** This configuration with the changes {@code change} makes to its builder. */
    private KeyhavenConfig with(Consumer<Builder> change) {
        Builder builder = toBuilder();
        change.accept(builder);
        return builder.build();
    }

    /** Sets options by name; each setter refuses a missing or out-of-range value at once, naming the option. */
    public static final class Builder {
        private final Path dataDirectory;
        private Optional<String> databaseUrl = Optional.empty();
        private Optional<Path> masterKeyFile = Optional.empty();
        private Optional<KekLocator.Pkcs11> hsmKek = Optional.empty();
        private int databasePoolSize = 0;
        private String host = "127.0.0.1";
        private int port = 8080;
        private int maxBodyBytes = DEFAULT_MAX_BODY_BYTES;
        private List<String> corsOrigins = List.of("*");
        private boolean console = true;
        private List<String> webAuthnOrigins = List.of("*");
        private TimestampStyle activityTimestamps = TimestampStyle.STRING;
        private UserLimits limits = UserLimits.DEFAULT;
        private Duration shutdownGrace = Duration.ofSeconds(10);
        private MailSettings mail = MailSettings.none();
        private WebhookSettings webhooks = WebhookSettings.DEFAULT;
        private OtpSettings otp = OtpSettings.defaults();
        private Oauth2Providers oauth2Providers = Oauth2Providers.DEFAULT;
        private List<IssuerConfig> oidcIssuers = List.of();
        private ConnectionLimits connections = ConnectionLimits.DEFAULT;

        private Builder(Path dataDirectory) {
            this.dataDirectory = Objects.requireNonNull(dataDirectory, "dataDirectory");
        }

        /** @param value a JDBC URL; empty means the embedded SQLite store in the data directory */
        public Builder databaseUrl(Optional<String> value) {
            Objects.requireNonNull(value, "databaseUrl");
            this.databaseUrl = value;
            return this;
        }

        /**
         * @param value the KEK file named by the operator; empty means {@code master.key} in the data directory,
         *        generated on first start
         */
        public Builder masterKeyFile(Optional<Path> value) {
            Objects.requireNonNull(value, "masterKeyFile");
            this.masterKeyFile = value;
            return this;
        }

        /** @param value the KEK on a PKCS#11 token; empty means a file KEK */
        public Builder hsmKek(Optional<KekLocator.Pkcs11> value) {
            Objects.requireNonNull(value, "hsmKek");
            this.hsmKek = value;
            return this;
        }

        /** @param value 0 picks the store's default */
        public Builder databasePoolSize(int value) {
            if (value < 0) {
                throw new IllegalArgumentException(
                        "databasePoolSize must be 0 (the store's default) or more: " + value);
            }
            this.databasePoolSize = value;
            return this;
        }

        public Builder host(String value) {
            Objects.requireNonNull(value, "host");
            if (value.isBlank()) {
                throw new IllegalArgumentException("host must not be blank");
            }
            this.host = value;
            return this;
        }

        /** @param value 0 to 65535; 0 picks a free port */
        public Builder port(int value) {
            if (value < 0 || value > 65535) {
                throw new IllegalArgumentException("port must be 0 to 65535: " + value);
            }
            this.port = value;
            return this;
        }

        /** @param value the largest request body accepted */
        public Builder maxBodyBytes(int value) {
            if (value < 1) {
                throw new IllegalArgumentException("maxBodyBytes must be at least 1: " + value);
            }
            this.maxBodyBytes = value;
            return this;
        }

        public Builder corsOrigins(List<String> value) {
            Objects.requireNonNull(value, "corsOrigins");
            this.corsOrigins = List.copyOf(value);
            return this;
        }

        /** @param value whether the API listener serves the operator console */
        public Builder console(boolean value) {
            this.console = value;
            return this;
        }

        /** @param value the origins passkey ceremonies may come from, or {@code *} for any */
        public Builder webAuthnOrigins(List<String> value) {
            Objects.requireNonNull(value, "webAuthnOrigins");
            this.webAuthnOrigins = List.copyOf(value);
            return this;
        }

        public Builder activityTimestamps(TimestampStyle value) {
            Objects.requireNonNull(value, "activityTimestamps");
            this.activityTimestamps = value;
            return this;
        }

        public Builder limits(UserLimits value) {
            Objects.requireNonNull(value, "limits");
            this.limits = value;
            return this;
        }

        public Builder shutdownGrace(Duration value) {
            Objects.requireNonNull(value, "shutdownGrace");
            if (value.isNegative()) {
                throw new IllegalArgumentException("shutdownGrace must not be negative: " + value);
            }
            this.shutdownGrace = value;
            return this;
        }

        /**
         * @param value how mail leaves (SMTP, or the Maildir in the data directory), the sender and the email
         *        templates
         */
        public Builder mail(MailSettings value) {
            Objects.requireNonNull(value, "mail");
            this.mail = value;
            return this;
        }

        /** @param value how webhooks are signed and delivered */
        public Builder webhooks(WebhookSettings value) {
            Objects.requireNonNull(value, "webhooks");
            this.webhooks = value;
            return this;
        }

        /** @param value one-time passwords: the auth proxy's port, the SMS provider, the rate limits */
        public Builder otp(OtpSettings value) {
            Objects.requireNonNull(value, "otp");
            this.otp = value;
            return this;
        }

        /** @param value the OAuth 2.0 providers' token and userinfo endpoints and issuers */
        public Builder oauth2Providers(Oauth2Providers value) {
            Objects.requireNonNull(value, "oauth2Providers");
            this.oauth2Providers = value;
            return this;
        }

        /** @param value the OIDC issuers whose ID tokens are trusted ({@code --oidc-issuers}); none by default */
        public Builder oidcIssuers(List<IssuerConfig> value) {
            Objects.requireNonNull(value, "oidcIssuers");
            this.oidcIssuers = List.copyOf(value);
            return this;
        }

        /** @param value the listeners' deadlines and connection cap (0: derived from the file-descriptor limit) */
        public Builder connections(ConnectionLimits value) {
            Objects.requireNonNull(value, "connections");
            this.connections = value;
            return this;
        }

        public KeyhavenConfig build() {
            return new KeyhavenConfig(this);
        }
    }
}
