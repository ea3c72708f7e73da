package dev.keyhaven.server.app;

import dev.keyhaven.server.activity.TimestampStyle;
import dev.keyhaven.server.http.ApiServer;
import dev.keyhaven.server.http.ConnectionLimits;
import dev.keyhaven.server.http.ListenerStartException;
import dev.keyhaven.server.mail.MailAddresses;
import dev.keyhaven.server.mail.MailSettings;
import dev.keyhaven.server.oauth2.Oauth2Providers;
import dev.keyhaven.server.oidc.IssuerConfig;
import dev.keyhaven.server.oidc.IssuersFile;
import dev.keyhaven.server.oidc.TrustedIssuer;
import dev.keyhaven.server.organization.Organization;
import dev.keyhaven.server.organization.RootOrganizationSetup;
import dev.keyhaven.server.user.ApiKeyCurve;
import dev.keyhaven.server.user.NewApiKey;
import dev.keyhaven.server.user.UserLimits;
import dev.keyhaven.server.webhook.WebhookSettings;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code serve}: runs the API. On an empty store it first creates the root organization, a root user and a fresh
 * API key pair written to the data directory, and prints how to call the API with it. SIGTERM (or SIGINT) stops
 * accepting requests, lets in-flight ones finish within the grace period, then closes the database and exits 0.
 */
@Command(name = "serve", mixinStandardHelpOptions = true, description = "Run the Keyhaven API.")
final class ServeCommand implements Callable<Integer> {
    @Spec
    CommandLine.Model.CommandSpec spec;

    private static final Logger LOG = LoggerFactory.getLogger(ServeCommand.class);
    /** A day: a connection deadline longer than that is no deadline. */
    private static final int MAX_TIMEOUT_SECONDS = 86_400;

    @Mixin
    StoreOptions store;

    @Option(
            names = "--port",
            defaultValue = "${env:KEYHAVEN_PORT:-8080}",
            description = "Port of the API (default: ${DEFAULT-VALUE}; 0 picks a free port; env: KEYHAVEN_PORT).")
    int port;

    @Option(
            names = "--bind",
            defaultValue = "${env:KEYHAVEN_BIND:-127.0.0.1}",
            description = "Address to listen on (default: ${DEFAULT-VALUE}; env: KEYHAVEN_BIND).")
    String bind;

    @Option(
            names = "--db-pool-size",
            defaultValue = "${env:KEYHAVEN_DB_POOL_SIZE:-0}",
            description = "Maximum database connections (default: 4 for SQLite, 16 for PostgreSQL; "
                    + "env: KEYHAVEN_DB_POOL_SIZE).")
    int databasePoolSize;

    @Option(
            names = "--activity-timestamps",
            defaultValue = "${env:KEYHAVEN_ACTIVITY_TIMESTAMPS:-string}",
            description = "How activities carry createdAt/updatedAt: 'string' (RFC 3339, the specification's form) or "
                    + "'object' ({seconds, nanos}, which the Go and Rust SDKs expect) (default: ${DEFAULT-VALUE}; "
                    + "env: KEYHAVEN_ACTIVITY_TIMESTAMPS).")
    TimestampStyle activityTimestamps;

    @Option(
            names = "--cors-origins",
            split = ",",
            defaultValue = "${env:KEYHAVEN_CORS_ORIGINS:-*}",
            description = "Origins browsers may call from, comma-separated, or * (default: ${DEFAULT-VALUE}; "
                    + "env: KEYHAVEN_CORS_ORIGINS).")
    List<String> corsOrigins;

    @Option(
            names = "--console",
            arity = "0..1",
            defaultValue = "${env:KEYHAVEN_CONSOLE:-true}",
            description = "Serve the operator console at /console on the API port; --console=false turns it off "
                    + "(default: ${DEFAULT-VALUE}; env: KEYHAVEN_CONSOLE).")
    boolean console;

    @Option(
            names = "--webauthn-origins",
            split = ",",
            defaultValue = "${env:KEYHAVEN_WEBAUTHN_ORIGINS:-*}",
            description = "Origins passkey registrations and assertions may come from, comma-separated "
                    + "(https://app.example.com), or * for any (default: ${DEFAULT-VALUE}; env: "
                    + "KEYHAVEN_WEBAUTHN_ORIGINS).")
    List<String> webAuthnOrigins;

    @Option(
            names = "--max-body-bytes",
            defaultValue = "${env:KEYHAVEN_MAX_BODY_BYTES:-1048576}",
            description = "Largest accepted request body (default: ${DEFAULT-VALUE}; env: KEYHAVEN_MAX_BODY_BYTES).")
    int maxBodyBytes;

    @Option(
            names = "--max-connections",
            defaultValue = "${env:KEYHAVEN_MAX_CONNECTIONS:-0}",
            description = "Client connections each listener (API, auth proxy) holds open at once; more wait to be "
                    + "accepted (default: 0, derived from the file-descriptor limit, leaving room for the database "
                    + "pool and webhooks; env: KEYHAVEN_MAX_CONNECTIONS).")
    int maxConnections;

    @Option(
            names = "--idle-timeout-seconds",
            defaultValue = "${env:KEYHAVEN_IDLE_TIMEOUT_SECONDS:-60}",
            description = "How long a connection may wait for the first byte of its next request before it is closed "
                    + "(default: ${DEFAULT-VALUE}; env: KEYHAVEN_IDLE_TIMEOUT_SECONDS).")
    int idleTimeoutSeconds;

    @Option(
            names = "--header-timeout-seconds",
            defaultValue = "${env:KEYHAVEN_HEADER_TIMEOUT_SECONDS:-10}",
            description = "How long a request line and headers may take from their first byte; then 408 (default: "
                    + "${DEFAULT-VALUE}; env: KEYHAVEN_HEADER_TIMEOUT_SECONDS).")
    int headerTimeoutSeconds;

    @Option(
            names = "--body-timeout-seconds",
            defaultValue = "${env:KEYHAVEN_BODY_TIMEOUT_SECONDS:-30}",
            description = "How long a request body may take after the headers; then 408 (default: ${DEFAULT-VALUE}; "
                    + "env: KEYHAVEN_BODY_TIMEOUT_SECONDS).")
    int bodyTimeoutSeconds;

    @Option(
            names = "--max-users-per-organization",
            defaultValue = "${env:KEYHAVEN_MAX_USERS_PER_ORGANIZATION:-100}",
            description = "Users an organization may have (default: ${DEFAULT-VALUE}, the real service's limit; "
                    + "env: KEYHAVEN_MAX_USERS_PER_ORGANIZATION).")
    int maxUsersPerOrganization;

    @Option(
            names = "--shutdown-grace-seconds",
            defaultValue = "${env:KEYHAVEN_SHUTDOWN_GRACE_SECONDS:-10}",
            description = "How long in-flight requests may take to finish on shutdown (default: ${DEFAULT-VALUE}; "
                    + "env: KEYHAVEN_SHUTDOWN_GRACE_SECONDS).")
    int shutdownGraceSeconds;

    @Option(
            names = "--smtp-host",
            defaultValue = "${env:KEYHAVEN_SMTP_HOST}",
            description = "SMTP server for outgoing mail (email recovery); without one, mail is written to the Maildir "
                    + "'maildir' in the data directory (env: KEYHAVEN_SMTP_HOST).")
    String smtpHost;

    @Option(
            names = "--smtp-port",
            defaultValue = "${env:KEYHAVEN_SMTP_PORT:-0}",
            description = "SMTP port (default: 25, 587 or 465 by --smtp-security; env: KEYHAVEN_SMTP_PORT).")
    int smtpPort;

    @Option(
            names = "--smtp-security",
            defaultValue = "${env:KEYHAVEN_SMTP_SECURITY:-starttls}",
            description = "none, starttls (required, not opportunistic) or tls (default: ${DEFAULT-VALUE}; "
                    + "env: KEYHAVEN_SMTP_SECURITY).")
    MailSettings.Security smtpSecurity;

    @Option(
            names = "--smtp-username",
            defaultValue = "${env:KEYHAVEN_SMTP_USERNAME}",
            description = "SMTP login, used with the SMTP password file (env: KEYHAVEN_SMTP_USERNAME).")
    String smtpUsername;

    @Option(
            names = "--smtp-password-file",
            defaultValue = "${env:KEYHAVEN_SMTP_PASSWORD_FILE}",
            description = "File holding the SMTP password (env: KEYHAVEN_SMTP_PASSWORD_FILE).")
    Path smtpPasswordFile;

    @Option(
            names = "--mail-from",
            defaultValue = "${env:KEYHAVEN_MAIL_FROM:-" + MailSettings.DEFAULT_FROM + "}",
            description = "Sender address when a request names none (default: ${DEFAULT-VALUE}; env: "
                    + "KEYHAVEN_MAIL_FROM).")
    String mailFrom;

    @Option(
            names = "--email-templates-dir",
            defaultValue = "${env:KEYHAVEN_EMAIL_TEMPLATES_DIR}",
            description = "Directory of email templates, <templateId>.html (+ optional .txt) (default: "
                    + "'email-templates' in the data directory; env: KEYHAVEN_EMAIL_TEMPLATES_DIR).")
    Path emailTemplatesDirectory;

    @Option(
            names = "--webhook-header-prefix",
            defaultValue = "${env:KEYHAVEN_WEBHOOK_HEADER_PREFIX:-Keyhaven}",
            description = "The <svc> of webhook delivery headers (X-<svc>-Signature) and JWKS fields "
                    + "(<svc>_signature_version); Turnkey makes deliveries verifiable by receivers written for Turnkey "
                    + "(default: ${DEFAULT-VALUE}; env: KEYHAVEN_WEBHOOK_HEADER_PREFIX).")
    String webhookHeaderPrefix;

    @Option(
            names = "--webhook-allow-insecure-urls",
            defaultValue = "${env:KEYHAVEN_WEBHOOK_ALLOW_INSECURE_URLS:-false}",
            description = "Accept http webhook URLs and loopback, private and link-local addresses: for tests and "
                    + "local development only (env: KEYHAVEN_WEBHOOK_ALLOW_INSECURE_URLS).")
    boolean webhookAllowInsecureUrls;

    @Option(
            names = "--webhook-max-attempts",
            defaultValue = "${env:KEYHAVEN_WEBHOOK_MAX_ATTEMPTS:-10}",
            description = "Attempts per webhook delivery before it is marked failed (default: ${DEFAULT-VALUE}; "
                    + "env: KEYHAVEN_WEBHOOK_MAX_ATTEMPTS).")
    int webhookMaxAttempts;

    @Option(
            names = "--webhook-first-retry-millis",
            defaultValue = "${env:KEYHAVEN_WEBHOOK_FIRST_RETRY_MILLIS:-5000}",
            description = "Delay before the first retry of a webhook delivery; each further one doubles, up to an "
                    + "hour, with jitter (default: ${DEFAULT-VALUE}; env: KEYHAVEN_WEBHOOK_FIRST_RETRY_MILLIS).")
    long webhookFirstRetryMillis;

    @Option(
            names = "--webhook-timeout-millis",
            defaultValue = "${env:KEYHAVEN_WEBHOOK_TIMEOUT_MILLIS:-10000}",
            description = "How long one webhook attempt may take, connecting, sending and reading the answer "
                    + "together (default: ${DEFAULT-VALUE}; env: KEYHAVEN_WEBHOOK_TIMEOUT_MILLIS).")
    long webhookTimeoutMillis;

    @Option(
            names = "--auth-proxy-port",
            defaultValue = "${env:KEYHAVEN_AUTH_PROXY_PORT:-8090}",
            description = "Port of the auth proxy (the OTP endpoints for apps without a backend) (default: "
                    + "${DEFAULT-VALUE}; 0 disables it; env: KEYHAVEN_AUTH_PROXY_PORT).")
    int authProxyPort;

    @Option(
            names = "--sign-in-limit-per-contact",
            defaultValue = "${env:KEYHAVEN_SIGN_IN_LIMIT_PER_CONTACT:-5}",
            description = "One-time-password codes one email address or phone number may be sent per window "
                    + "(default: ${DEFAULT-VALUE}; env: KEYHAVEN_SIGN_IN_LIMIT_PER_CONTACT).")
    int signInLimitPerContact;

    @Option(
            names = "--sign-in-limit-per-address",
            defaultValue = "${env:KEYHAVEN_SIGN_IN_LIMIT_PER_ADDRESS:-50}",
            description = "Sign-in requests (OTP codes, OAuth sign-ins) one client address may make through the auth "
                    + "proxy per window (default: ${DEFAULT-VALUE}; env: KEYHAVEN_SIGN_IN_LIMIT_PER_ADDRESS).")
    int signInLimitPerAddress;

    @Option(
            names = "--sign-in-limit-window-seconds",
            defaultValue = "${env:KEYHAVEN_SIGN_IN_LIMIT_WINDOW_SECONDS:-900}",
            description = "The sliding window of both sign-in limits (default: ${DEFAULT-VALUE}; env: "
                    + "KEYHAVEN_SIGN_IN_LIMIT_WINDOW_SECONDS).")
    int signInLimitWindowSeconds;

    @Option(
            names = "--sms-provider",
            defaultValue = "${env:KEYHAVEN_SMS_PROVIDER:-none}",
            description = "Where SMS codes go: none (SMS requests are refused), twilio, or file (development: appended "
                    + "to sms.log in the data directory) (default: ${DEFAULT-VALUE}; env: KEYHAVEN_SMS_PROVIDER).")
    String smsProvider;

    @Option(
            names = "--twilio-base-url",
            defaultValue = "${env:KEYHAVEN_TWILIO_BASE_URL:-https://api.twilio.com}",
            description = "Twilio API root (default: ${DEFAULT-VALUE}; env: KEYHAVEN_TWILIO_BASE_URL).")
    String twilioBaseUrl;

    @Option(
            names = "--twilio-account-sid",
            defaultValue = "${env:KEYHAVEN_TWILIO_ACCOUNT_SID}",
            description = "Twilio account SID (env: KEYHAVEN_TWILIO_ACCOUNT_SID).")
    String twilioAccount;

    @Option(
            names = "--twilio-token-file",
            defaultValue = "${env:KEYHAVEN_TWILIO_TOKEN_FILE}",
            description = "File holding the Twilio auth token (env: KEYHAVEN_TWILIO_TOKEN_FILE).")
    Path twilioTokenFile;

    // A label wider than picocli's option column keeps the help's wrapping as it was.
    @Option(
            names = "--sms-from",
            paramLabel = "<senderNumber>",
            defaultValue = "${env:KEYHAVEN_SMS_FROM}",
            description = "Sender number of SMS codes (Twilio) (env: KEYHAVEN_SMS_FROM).")
    String smsFrom;

    @Option(
            names = "--captcha-verify-url",
            defaultValue = "${env:KEYHAVEN_CAPTCHA_VERIFY_URL}",
            description = "Turnstile-compatible siteverify endpoint that checks the auth proxy's captcha tokens "
                    + "(e.g. https://challenges.cloudflare.com/turnstile/v0/siteverify); without it captcha tokens are "
                    + "ignored. Needs --captcha-site-key and the secret (env: KEYHAVEN_CAPTCHA_VERIFY_URL).")
    String captchaVerifyUrl;

    @Option(
            names = "--captcha-site-key",
            defaultValue = "${env:KEYHAVEN_CAPTCHA_SITE_KEY}",
            description = "The captcha's public site key, given to browsers by /v1/wallet_kit_client_params (env: "
                    + "KEYHAVEN_CAPTCHA_SITE_KEY).")
    String captchaSiteKey;

    @Option(
            names = "--captcha-secret-file",
            defaultValue = "${env:KEYHAVEN_CAPTCHA_SECRET_FILE}",
            description = "File holding the captcha secret; or set KEYHAVEN_CAPTCHA_SECRET (env: "
                    + "KEYHAVEN_CAPTCHA_SECRET_FILE).")
    Path captchaSecretFile;

    @Option(
            names = "--oauth2-providers",
            defaultValue = "${env:KEYHAVEN_OAUTH2_PROVIDERS}",
            description = "JSON file of OAuth 2.0 provider endpoints: an array of {provider (OAUTH2_PROVIDER_X or "
                    + "OAUTH2_PROVIDER_DISCORD), tokenEndpoint, userinfoEndpoint, issuer?}; providers it leaves out "
                    + "use their real endpoints (env: KEYHAVEN_OAUTH2_PROVIDERS).")
    Path oauth2ProvidersFile;

    @Option(
            names = "--oidc-issuers",
            defaultValue = "${env:KEYHAVEN_OIDC_ISSUERS}",
            description = "JSON file of the trusted OIDC issuers: [{issuer, jwksUri | jwksFile, audiences}] "
                    + "(default: none, every OIDC token is refused; env: KEYHAVEN_OIDC_ISSUERS).")
    Path oidcIssuersFile;

    @Override
    public Integer call() throws InterruptedException {
        Path directory = store.preparedDataDirectory();
        requirePositive("--max-users-per-organization", maxUsersPerOrganization);
        KeyhavenConfig config = config(directory);
        // Installed first: a stop signal that arrives while the store opens is kept until the server can stop.
        StopSignals stopSignals = StopSignals.install();
        Keyhaven keyhaven = Keyhaven.open(config, Clock.systemUTC());
        Organization root;
        ApiServer server;
        try {
            root = keyhaven.rootSetup().root().orElseGet(() -> bootstrap(keyhaven, directory));
            server = keyhaven.serve();
        } catch (ListenerStartException e) {
            // An address in use is the operator's to fix: one line naming it, no stack trace, a failed exit.
            keyhaven.close();
            spec.commandLine().getErr().println("keyhaven: " + e.getMessage());
            return 1;
        } catch (RuntimeException e) {
            keyhaven.close();
            throw e;
        }
        // Any other end of the JVM (SIGHUP, a signal the JVM kept) still drains requests before the database closes.
        Thread shutdownHook =
                Thread.ofPlatform().name("keyhaven-shutdown").unstarted(() -> stop(keyhaven, "JVM shutdown"));
        Runtime.getRuntime().addShutdownHook(shutdownHook);
        announce(
                System.out,
                root,
                "http://" + reachableHost(bind) + ":" + server.port(),
                directory,
                keyhaven.bundleSignerPublicKey(),
                keyhaven.identityPublicKey());
        announceAuthProxy(System.out, keyhaven, reachableHost(bind));

        String signal = stopSignals.await();
        try {
            Runtime.getRuntime().removeShutdownHook(shutdownHook);
        } catch (IllegalStateException jvmAlreadyStopping) {
            // The hook is running the same stop; Keyhaven.close() waits for it.
        }
        stop(keyhaven, signal);
        return 0;
    }

    /** The mail options; a bad combination is a usage error before anything starts. */
    private MailSettings mailSettings() {
        if (!MailAddresses.isValid(mailFrom)) {
            throw new CommandLine.ParameterException(
                    spec.commandLine(), "--mail-from is not an email address: " + mailFrom);
        }
        if ((smtpUsername == null) != (smtpPasswordFile == null)) {
            throw new CommandLine.ParameterException(
                    spec.commandLine(), "--smtp-username and --smtp-password-file go together");
        }
        Optional<MailSettings.Smtp> smtp = Optional.empty();
        if (smtpHost != null && !smtpHost.isBlank()) {
            int port = smtpPort != 0
                    ? smtpPort
                    : switch (smtpSecurity) {
                        case NONE -> 25;
                        case STARTTLS -> 587;
                        case TLS -> 465;
                    };
            Optional<String> password = Optional.ofNullable(smtpPasswordFile).map(f -> {
                try {
                    return Files.readString(f, StandardCharsets.UTF_8).strip();
                } catch (IOException e) {
                    throw new CommandLine.ParameterException(
                            spec.commandLine(), "cannot read --smtp-password-file " + f + ": " + e.getMessage());
                }
            });
            smtp = Optional.of(new MailSettings.Smtp(
                    smtpHost, port, smtpSecurity, Optional.ofNullable(smtpUsername), password, Duration.ofSeconds(10)));
        }
        return new MailSettings(smtp, mailFrom, Optional.ofNullable(emailTemplatesDirectory));
    }

    /** The OAuth 2.0 providers file; a bad one is a usage error, naming the entry, before anything starts. */
    private Oauth2Providers oauth2Providers() {
        if (oauth2ProvidersFile == null) {
            return Oauth2Providers.DEFAULT;
        }
        try {
            return Oauth2Providers.read(oauth2ProvidersFile);
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--oauth2-providers: " + e.getMessage());
        }
    }

    /**
     * The captcha verification the options describe: none without {@code --captcha-verify-url}; with it, the site
     * key and the secret (from {@code --captcha-secret-file}, else {@code KEYHAVEN_CAPTCHA_SECRET}) are required.
     */
    private Optional<OtpSettings.Captcha> captcha() {
        if (captchaVerifyUrl == null || captchaVerifyUrl.isBlank()) {
            if (captchaSiteKey != null || captchaSecretFile != null) {
                throw new CommandLine.ParameterException(
                        spec.commandLine(), "--captcha-site-key and --captcha-secret-file need --captcha-verify-url");
            }
            return Optional.empty();
        }
        java.net.URI url;
        try {
            url = new java.net.URI(captchaVerifyUrl);
        } catch (java.net.URISyntaxException e) {
            url = null;
        }
        if (url == null
                || !("https".equals(url.getScheme()) || "http".equals(url.getScheme()))
                || url.getHost() == null) {
            throw new CommandLine.ParameterException(
                    spec.commandLine(), "--captcha-verify-url must be an absolute http(s) URL");
        }
        if (captchaSiteKey == null || captchaSiteKey.isBlank()) {
            throw new CommandLine.ParameterException(
                    spec.commandLine(), "--captcha-verify-url needs --captcha-site-key");
        }
        String secret;
        if (captchaSecretFile != null) {
            try {
                secret = java.nio.file.Files.readString(captchaSecretFile).strip();
            } catch (java.io.IOException e) {
                throw new CommandLine.ParameterException(
                        spec.commandLine(), "--captcha-secret-file cannot be read: " + captchaSecretFile);
            }
        } else {
            secret = Optional.ofNullable(System.getenv("KEYHAVEN_CAPTCHA_SECRET"))
                    .orElse("")
                    .strip();
        }
        if (secret.isEmpty()) {
            throw new CommandLine.ParameterException(
                    spec.commandLine(),
                    "--captcha-verify-url needs the secret: --captcha-secret-file or KEYHAVEN_CAPTCHA_SECRET");
        }
        return Optional.of(new OtpSettings.Captcha(url, captchaSiteKey, secret));
    }

    /** The OTP options; a bad combination is a usage error before anything starts. */
    private OtpSettings otpSettings() {
        OtpSettings.SmsProvider provider = switch (smsProvider.toLowerCase(java.util.Locale.ROOT)) {
            case "none" -> OtpSettings.SmsProvider.NONE;
            case "twilio" -> OtpSettings.SmsProvider.TWILIO;
            case "file" -> OtpSettings.SmsProvider.FILE;
            default ->
                throw new CommandLine.ParameterException(
                        spec.commandLine(), "--sms-provider must be none, twilio or file: " + smsProvider);
        };
        if (provider == OtpSettings.SmsProvider.TWILIO
                && (twilioAccount == null || twilioTokenFile == null || smsFrom == null)) {
            throw new CommandLine.ParameterException(
                    spec.commandLine(),
                    "--sms-provider twilio needs --twilio-account-sid, --twilio-token-file and --sms-from");
        }
        if (authProxyPort < 0 || authProxyPort > 65535) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--auth-proxy-port must be 0 to 65535");
        }
        OtpSettings.Sms sms = new OtpSettings.Sms(
                provider,
                twilioBaseUrl,
                twilioAccount == null ? "" : twilioAccount,
                Optional.ofNullable(twilioTokenFile),
                smsFrom == null ? "" : smsFrom);
        requirePositive("--sign-in-limit-per-contact", signInLimitPerContact);
        requirePositive("--sign-in-limit-per-address", signInLimitPerAddress);
        requirePositive("--sign-in-limit-window-seconds", signInLimitWindowSeconds);
        return OtpSettings.defaults()
                .withCaptcha(captcha())
                .withSms(sms)
                .withAuthProxyPort(
                        authProxyPort == 0 ? java.util.OptionalInt.empty() : java.util.OptionalInt.of(authProxyPort))
                .withRateLimits(
                        signInLimitPerContact, signInLimitPerAddress, Duration.ofSeconds(signInLimitWindowSeconds));
    }

    /** The configuration the options describe; a value the configuration refuses is a usage error naming it. */
    private KeyhavenConfig config(Path directory) {
        try {
            return KeyhavenConfig.builder(directory)
                    .databaseUrl(store.databaseUrl())
                    .masterKeyFile(store.masterKeyFile())
                    .hsmKek(store.hsmKek())
                    .databasePoolSize(databasePoolSize)
                    .host(bind)
                    .port(port)
                    .maxBodyBytes(maxBodyBytes)
                    .corsOrigins(corsOrigins)
                    .console(console)
                    .webAuthnOrigins(webAuthnOrigins)
                    .activityTimestamps(activityTimestamps)
                    .limits(UserLimits.DEFAULT.toBuilder()
                            .usersPerOrganization(maxUsersPerOrganization)
                            .build())
                    .shutdownGrace(Duration.ofSeconds(shutdownGraceSeconds))
                    .mail(mailSettings())
                    .webhooks(WebhookSettings.DEFAULT
                            .withHeaderPrefix(webhookHeaderPrefix)
                            .withAllowInsecureUrls(webhookAllowInsecureUrls)
                            .withRetries(
                                    webhookMaxAttempts,
                                    Duration.ofMillis(webhookFirstRetryMillis),
                                    WebhookSettings.DEFAULT.maxRetryDelay())
                            .withRequestTimeout(Duration.ofMillis(webhookTimeoutMillis)))
                    .otp(otpSettings())
                    .oauth2Providers(oauth2Providers())
                    .oidcIssuers(oidcIssuers())
                    .connections(connectionLimits())
                    .build();
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
        }
    }

    private void requirePositive(String option, int value) {
        if (value < 1) {
            throw new CommandLine.ParameterException(spec.commandLine(), option + " must be at least 1: " + value);
        }
    }

    /** The listeners' deadlines and connection cap; a value out of range is a usage error naming the option. */
    private ConnectionLimits connectionLimits() {
        if (maxConnections < 0) {
            throw new CommandLine.ParameterException(
                    spec.commandLine(),
                    "--max-connections must be 0 (derived from " + "the file-descriptor limit) or more: "
                            + maxConnections);
        }
        checkTimeout("--idle-timeout-seconds", idleTimeoutSeconds);
        checkTimeout("--header-timeout-seconds", headerTimeoutSeconds);
        checkTimeout("--body-timeout-seconds", bodyTimeoutSeconds);
        return new ConnectionLimits(
                Duration.ofSeconds(idleTimeoutSeconds),
                Duration.ofSeconds(headerTimeoutSeconds),
                Duration.ofSeconds(bodyTimeoutSeconds),
                maxConnections);
    }

    private void checkTimeout(String option, int seconds) {
        if (seconds < 1 || seconds > MAX_TIMEOUT_SECONDS) {
            throw new CommandLine.ParameterException(
                    spec.commandLine(), option + " must be 1 to " + MAX_TIMEOUT_SECONDS + ": " + seconds);
        }
    }

    /** The trusted OIDC issuers; a bad file (or JWKS file) is a usage error naming the entry. */
    private List<IssuerConfig> oidcIssuers() {
        if (oidcIssuersFile == null) {
            return List.of();
        }
        try {
            List<IssuerConfig> issuers = IssuersFile.read(oidcIssuersFile);
            TrustedIssuer.of(issuers);
            return issuers;
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--oidc-issuers: " + e.getMessage());
        }
    }

    private void stop(Keyhaven keyhaven, String reason) {
        LOG.atInfo()
                .addKeyValue("reason", reason)
                .addKeyValue("graceSeconds", shutdownGraceSeconds)
                .log("stopping: refusing new requests, finishing in-flight ones");
        keyhaven.close();
        LOG.info("stopped");
    }

    /** Creates the root organization with a freshly generated key pair, kept in the data directory. */
    private static Organization bootstrap(Keyhaven keyhaven, Path directory) {
        KeyFiles keys = KeyFiles.rootIn(directory);
        String publicKey = keys.exist() ? keys.readPublicKey() : keys.generateP256(new SecureRandom());
        RootOrganizationSetup.Created created = keyhaven.rootSetup()
                .initialize(
                        "Root organization", "root", NewApiKey.of("root", publicKey, ApiKeyCurve.API_KEY_CURVE_P256));
        keyhaven.createDefaultAuthProxyConfig(created.organizationId());
        writeOrganizationId(directory, created.organizationId());
        LOG.atInfo()
                .addKeyValue("org", created.organizationId())
                .addKeyValue("keyFile", keys.publicKeyFile())
                .log("initialised an empty store with a root organization, root user and API key");
        return keyhaven.rootSetup().root().orElseThrow();
    }

    /**
     * Writes the root organization's id to {@code root-organization-id} beside the key files, so that a script or
     * an example reads it as it reads the key (every example in the docs does). Not secret: the id names the
     * organization, the key proves the caller.
     */
    private static void writeOrganizationId(Path directory, String organizationId) {
        try {
            Files.writeString(directory.resolve("root-organization-id"), organizationId + "\n", StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + directory.resolve("root-organization-id"), e);
        }
    }

    /** Prints where the API is, the root organization, its key files and a command that calls the API with them. */
    private static void announce(
            PrintStream out, Organization root, String url, Path directory, String signer, String identityKey) {
        KeyFiles keys = KeyFiles.rootIn(directory);
        String body = "{\"organizationId\":\"" + root.id() + "\"}";
        List<String> lines = new ArrayList<>();
        lines.add("Keyhaven is serving on " + url);
        lines.add("  organization id:  " + root.id() + " (" + root.name() + ")");
        if (keys.exist()) {
            lines.add("  root API key:     " + keys.publicKeyFile());
            lines.add("                    " + keys.privateKeyFile());
            String prefix = directory.resolve("root-api-key").toString();
            lines.add("  try it:           " + requestCommand(url, prefix, body));
        } else {
            lines.add("  root API key:     the one given to 'keyhaven init' (its private key is not kept here)");
            lines.add("  try it:           " + requestCommand(url, "PREFIX", body));
            lines.add("                    (PREFIX.public and PREFIX.private: your P-256 key pair in hex)");
        }
        lines.add("  bundle signer:    " + signer + " (pin it; also GET " + ApiServer.SIGNER_DISCOVERY_PATH + ")");
        lines.add("  identity key:     " + identityKey + " (pin it to verify app proofs and the audit log)");
        out.println(String.join(System.lineSeparator(), lines));
        out.flush();
    }

    /** Prints the auth proxy's address, every configuration's id, and the OTP and session signers. */
    private static void announceAuthProxy(PrintStream out, Keyhaven keyhaven, String host) {
        List<String> lines = new ArrayList<>();
        lines.add(keyhaven.authProxyServer()
                .map(p -> "  auth proxy:       http://" + host + ":" + p.port())
                .orElse("  auth proxy:       disabled (--auth-proxy-port 0)"));
        keyhaven.authProxyConfigs()
                .forEach(c ->
                        lines.add("auth proxy config id: " + c.id() + " (organization " + c.organizationId() + ")"));
        lines.add("  OTP signer:       " + keyhaven.otpSignerPublicKey() + " (GET "
                + ApiServer.OTP_SIGNER_DISCOVERY_PATH + ")");
        lines.add("  session signer:   " + keyhaven.sessionSignerPublicKey() + " (GET "
                + ApiServer.SESSION_SIGNER_DISCOVERY_PATH + ")");
        out.println(String.join(System.lineSeparator(), lines));
        out.flush();
    }

    /** The host a local client reaches the listener at: loopback for a wildcard address. */
    private static String reachableHost(String bindAddress) {
        return switch (bindAddress) {
            case "0.0.0.0", "::", "[::]" -> "127.0.0.1";
            default ->
                bindAddress.contains(":") && !bindAddress.startsWith("[") ? "[" + bindAddress + "]" : bindAddress;
        };
    }

    /**
     * A shell command running {@code request} with this very JVM and jar: the {@code java} first on the PATH may be
     * older than the one Keyhaven needs.
     */
    private static String requestCommand(String url, String keyPrefix, String body) {
        String java = ProcessHandle.current().info().command().orElse("java");
        String jar;
        try {
            jar = Path.of(ServeCommand.class
                            .getProtectionDomain()
                            .getCodeSource()
                            .getLocation()
                            .toURI())
                    .toString();
        } catch (URISyntaxException | IllegalArgumentException e) {
            jar = "keyhaven.jar";
        }
        return Stream.of(
                        java,
                        "-jar",
                        jar,
                        "request",
                        "--url",
                        url,
                        "--key",
                        keyPrefix,
                        "--path",
                        "/public/v1/query/whoami",
                        "--body",
                        body)
                .map(ServeCommand::shellQuoted)
                .collect(Collectors.joining(" "));
    }

    private static String shellQuoted(String word) {
        return word.matches("[A-Za-z0-9_@%+=:,./-]+") ? word : "'" + word.replace("'", "'\\''") + "'";
    }
}
