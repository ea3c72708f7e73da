package dev.keyhaven.server.app;

import dev.keyhaven.server.api.ApiException;
import dev.keyhaven.server.api.JsonMappers;
import dev.keyhaven.server.api.Params;
import dev.keyhaven.server.authproxy.AuthProxyConfig;
import dev.keyhaven.server.authproxy.AuthProxyConfigs;
import java.time.Clock;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code auth-proxy-config}: lists the auth-proxy configurations ({@code --list}), creates one for an organization
 * (the root unless {@code --organization-id}), or changes one ({@code --config-id}); prints the configuration as one
 * JSON object. The same rules as the {@code update_auth_proxy_config} activity; an option left out keeps its value.
 */
@Command(
        name = "auth-proxy-config",
        mixinStandardHelpOptions = true,
        description = "List, create or change auth proxy configurations (OTP login for apps without a backend).")
final class AuthProxyConfigCommand implements Callable<Integer> {

    @Mixin
    StoreOptions store;

    @Option(names = "--list", description = "Print every configuration, one JSON object a line, and change nothing.")
    boolean list;

    @Option(names = "--config-id", description = "The configuration to change (without it, one is created).")
    String configId;

    @Option(names = "--organization-id", description = "The organization of a new configuration (default: the root).")
    String organizationId;

    @Option(names = "--allowed-origins", split = ",", description = "Browser origins allowed to call, or *.")
    List<String> allowedOrigins;

    @Option(names = "--email-enabled", arity = "1", description = "Email codes on or off (true/false).")
    Boolean emailEnabled;

    @Option(names = "--sms-enabled", arity = "1", description = "SMS codes on or off (true/false).")
    Boolean smsEnabled;

    @Option(names = "--otp-length", description = "Code length, 6 to 9.")
    Integer otpLength;

    @Option(names = "--alphanumeric", arity = "1", description = "Crockford base32 codes instead of digits.")
    Boolean alphanumeric;

    @Option(names = "--otp-expiration-seconds", description = "Code lifetime, at most 600 s.")
    Long otpExpirationSeconds;

    @Option(names = "--session-expiration-seconds", description = "Session lifetime.")
    Long sessionExpirationSeconds;

    @Option(names = "--app-name", description = "The app name in messages.")
    String appName;

    @Option(
            names = "--email-template-id",
            description =
                    "The email template of codes (a file of the templates " + "directory; empty for the built-in one).")
    String emailTemplateId;

    @Option(names = "--signup-enabled", arity = "1", description = "Whether unknown contacts may sign up.")
    Boolean signupEnabled;

    @Override
    public Integer call() {
        KeyhavenConfig config = KeyhavenConfig.defaults(store.preparedDataDirectory())
                .withDatabaseUrl(store.databaseUrl())
                .withMasterKeyFile(store.masterKeyFile());
        try (Keyhaven keyhaven = Keyhaven.open(config, Clock.systemUTC())) {
            if (list) {
                keyhaven.authProxyConfigs().forEach(c -> print(c));
                return 0;
            }
            // A change finds the configuration by id alone, unless an organization is named.
            Optional<String> organization = Optional.ofNullable(organizationId)
                    .or(() -> configId != null
                            ? Optional.of("")
                            : keyhaven.rootSetup().root().map(o -> o.id()));
            if (configId == null && organization.isEmpty()) {
                System.err.println("keyhaven auth-proxy-config: the store has no root organization yet (run init)");
                return 1;
            }
            print(keyhaven.saveAuthProxyConfig(
                    Optional.ofNullable(configId), organization.orElse(""), Params.of(changes(), "")));
            return 0;
        } catch (ApiException e) {
            System.err.println("keyhaven auth-proxy-config: " + e.getMessage());
            return 1;
        }
    }

    private ObjectNode changes() {
        ObjectNode node = JsonMappers.strict().createObjectNode();
        if (allowedOrigins != null) {
            allowedOrigins.forEach(node.putArray("allowedOrigins")::add);
        }
        Optional.ofNullable(emailEnabled).ifPresent(v -> node.put("emailEnabled", v));
        Optional.ofNullable(smsEnabled).ifPresent(v -> node.put("smsEnabled", v));
        Optional.ofNullable(otpLength).ifPresent(v -> node.put("otpLength", v));
        Optional.ofNullable(alphanumeric).ifPresent(v -> node.put("alphanumeric", v));
        Optional.ofNullable(otpExpirationSeconds).ifPresent(v -> node.put("otpExpirationSeconds", v.toString()));
        Optional.ofNullable(sessionExpirationSeconds)
                .ifPresent(v -> node.put("sessionExpirationSeconds", v.toString()));
        Optional.ofNullable(appName).ifPresent(v -> node.put("appName", v));
        Optional.ofNullable(emailTemplateId).ifPresent(v -> node.put("emailTemplateId", v));
        Optional.ofNullable(signupEnabled).ifPresent(v -> node.put("signupEnabled", v));
        return node;
    }

    private static void print(AuthProxyConfig config) {
        System.out.println(JsonMappers.strict().writeValueAsString(AuthProxyConfigs.view(config)));
    }
}
