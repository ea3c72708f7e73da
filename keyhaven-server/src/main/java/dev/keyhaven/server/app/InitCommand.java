package dev.keyhaven.server.app;

import dev.keyhaven.server.api.JsonMappers;
import dev.keyhaven.server.organization.RootOrganizationSetup;
import dev.keyhaven.server.user.ApiKeyCurve;
import dev.keyhaven.server.user.NewApiKey;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code init}: creates the root organization, its root user and that user's API key from a public key the
 * operator supplies (the private key never reaches the server), and prints their ids as one JSON object.
 */
@Command(
        name = "init",
        mixinStandardHelpOptions = true,
        description = "Initialise an empty store with the root organization, root user and API key; prints "
                + "{\"organizationId\",\"userId\",\"apiKeyId\",\"bundleSignerPublicKey\"} on stdout.")
final class InitCommand implements Callable<Integer> {

    @Mixin
    StoreOptions store;

    @Option(
            names = "--organization-name",
            required = true,
            defaultValue = "${env:KEYHAVEN_ORGANIZATION_NAME}",
            description = "Name of the root organization (env: KEYHAVEN_ORGANIZATION_NAME).")
    String organizationName;

    @Option(
            names = "--user-name",
            required = true,
            defaultValue = "${env:KEYHAVEN_USER_NAME}",
            description = "Name of the root user (env: KEYHAVEN_USER_NAME).")
    String userName;

    @Option(
            names = "--api-public-key",
            required = true,
            defaultValue = "${env:KEYHAVEN_API_PUBLIC_KEY}",
            description = "The root user's API public key, hex (compressed for P-256/secp256k1) "
                    + "(env: KEYHAVEN_API_PUBLIC_KEY).")
    String apiPublicKey;

    @Option(
            names = "--api-key-curve",
            defaultValue = "${env:KEYHAVEN_API_KEY_CURVE:-API_KEY_CURVE_P256}",
            description = "API_KEY_CURVE_P256, API_KEY_CURVE_SECP256K1 or API_KEY_CURVE_ED25519 "
                    + "(default: ${DEFAULT-VALUE}; env: KEYHAVEN_API_KEY_CURVE).")
    ApiKeyCurve apiKeyCurve;

    @Override
    public Integer call() {
        NewApiKey key;
        try {
            key = NewApiKey.of("root", apiPublicKey, apiKeyCurve);
        } catch (IllegalArgumentException e) {
            System.err.println(
                    "keyhaven init: --api-public-key is not a valid " + apiKeyCurve.wireName() + " public key");
            return 2;
        }
        try (Keyhaven keyhaven = Keyhaven.open(store.config(), Clock.systemUTC())) {
            RootOrganizationSetup.Created created = keyhaven.rootSetup().initialize(organizationName, userName, key);
            Map<String, String> out = new LinkedHashMap<>();
            out.put("organizationId", created.organizationId());
            out.put("userId", created.userId());
            out.put("apiKeyId", created.apiKeyId());
            out.put("bundleSignerPublicKey", keyhaven.bundleSignerPublicKey());
            out.put("authProxyConfigId", keyhaven.createDefaultAuthProxyConfig(created.organizationId()));
            out.put("otpSignerPublicKey", keyhaven.otpSignerPublicKey());
            out.put("sessionSignerPublicKey", keyhaven.sessionSignerPublicKey());
            System.out.println(JsonMappers.strict().writeValueAsString(out));
            return 0;
        } catch (RootOrganizationSetup.AlreadyInitialized e) {
            System.err.println("keyhaven init: " + e.getMessage() + "; nothing was changed");
            return 1;
        }
    }
}
