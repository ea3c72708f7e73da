package dev.keyhaven.server.authproxy;

import dev.keyhaven.server.api.ApiException;
import dev.keyhaven.server.api.Params;
import dev.keyhaven.server.user.ApiKeyCurve;
import dev.keyhaven.server.user.NewApiKey;
import dev.keyhaven.server.user.NewOauthProvider;
import dev.keyhaven.server.user.NewUser;
import java.util.Map;

/**
 * The sign-up methods a {@code signup_v2} request uses, each of which its auth proxy configuration must offer
 * ({@link AuthProxyConfig#allowsSignUpWith}): what the wallet kit shows a user is what the proxy lets them sign up
 * with, and nothing else. An empty {@code enabledProviders} offers none of these (fail closed): such a configuration
 * signs up by email or SMS code only.
 *
 * <ul>
 *   <li>{@code authenticators} (passkeys) need {@code passkey}.
 *   <li>A secp256k1 or Ed25519 API key is a wallet's key (core's wallet sign-in) and needs {@code wallet}. A P-256 API
 *       key is the client's session key riding along with another method (the passkey flow's temporary key), so it
 *       needs nothing of its own; but a request whose only credentials are P-256 keys signs up by key, as a wallet
 *       does, and needs {@code wallet}.
 *   <li>An OAuth provider needs the provider its token came from: Google, Apple and Facebook by their issuers, X and
 *       Discord by the issuers Keyhaven's OAuth 2.0 exchange gives their tokens; failing that, the provider whose
 *       {@code oauthClientIds} entry is the token's audience. Any other issuer the server trusts is a generic OIDC
 *       provider, which needs {@code oidc} (a Keyhaven name; the wallet kit has no button for it and ignores it).
 * </ul>
 */
final class SignUpMethods {
    /** The issuers of the wallet kit's OAuth providers. */
    private static final Map<String, String> ISSUERS = Map.of(
            "https://accounts.google.com", "google",
            "accounts.google.com", "google",
            "https://appleid.apple.com", "apple",
            "https://www.facebook.com", "facebook",
            "https://facebook.com", "facebook",
            "https://x.com", "x",
            "https://discord.com", "discord");

    private SignUpMethods() {}

    /** Before anything is verified: a passkey sign-up through a configuration without passkeys goes no further. */
    static void checkPasskeys(AuthProxyConfig config, Params body) {
        if (body.node().path("authenticators").isArray()
                && !body.node().path("authenticators").isEmpty()
                && !config.allowsSignUpWith("passkey")) {
            throw refused(body.pathOf("authenticators"), "a passkey", "passkey");
        }
    }

    /** The API keys and OAuth providers of the read user, {@code hasContact} when a verified contact comes too. */
    static void checkCredentials(AuthProxyConfig config, Params body, NewUser user, boolean hasContact) {
        boolean keysOnly = !hasContact
                && user.authenticators().isEmpty()
                && user.oauthProviders().isEmpty();
        for (int i = 0; i < user.apiKeys().size(); i++) {
            NewApiKey key = user.apiKeys().get(i);
            boolean walletKey = key.curve() != ApiKeyCurve.API_KEY_CURVE_P256 || keysOnly;
            if (walletKey && !config.allowsSignUpWith("wallet")) {
                throw refused(body.pathOf("apiKeys") + "[" + i + "]", "a wallet's key", "wallet");
            }
        }
        for (int i = 0; i < user.oauthProviders().size(); i++) {
            NewOauthProvider identity = user.oauthProviders().get(i);
            String provider = providerOf(config, identity.issuer(), identity.audience());
            if (!config.allowsSignUpWith(provider)) {
                throw refused(body.pathOf("oauthProviders") + "[" + i + "]", "a " + provider + " identity", provider);
            }
        }
    }

    /** The {@code enabledProviders} name of the provider that issued an identity of {@code issuer}. */
    static String providerOf(AuthProxyConfig config, String issuer, String audience) {
        String known = ISSUERS.get(issuer);
        if (known != null) {
            return known;
        }
        return config.oauthClientIds().entrySet().stream()
                .filter(e -> e.getValue().equals(audience))
                .map(Map.Entry::getKey)
                .findFirst()
                .orElse("oidc");
    }

    private static ApiException refused(String field, String what, String provider) {
        return ApiException.badField(
                field,
                "signs up with " + what + ", and this auth proxy config does not offer that: '" + provider
                        + "' is not in its enabledProviders");
    }
}
