package dev.keyhaven.server.user;

import dev.keyhaven.server.api.ApiException;
import dev.keyhaven.server.api.Params;
import dev.keyhaven.server.oidc.OidcVerifier;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * A validated user to create: {@code v1UserParamsV4} (create_users) or {@code v1RootUserParamsV5} (the root users of
 * a sub-organization, which carry no tags).
 */
public record NewUser(
        String name,
        Optional<String> email,
        Optional<String> phoneNumber,
        List<NewApiKey> apiKeys,
        List<NewAuthenticator> authenticators,
        List<String> tagIds,
        List<NewOauthProvider> oauthProviders) {

    public NewUser {
        oauthProviders = List.copyOf(oauthProviders);
    }

    /** A user without OAuth providers. */
    public NewUser(
            String name,
            Optional<String> email,
            Optional<String> phoneNumber,
            List<NewApiKey> apiKeys,
            List<NewAuthenticator> authenticators,
            List<String> tagIds) {
        this(name, email, phoneNumber, apiKeys, authenticators, tagIds, List.of());
    }

    /**
     * What one version's user parameters hold: how its API keys and authenticators are read, whether it has a phone
     * number, which OAuth providers it takes, and whether it has tags (root users have none).
     */
    public record Shape(
            Function<Params, NewApiKey> apiKey,
            boolean rawCredentialAuthenticators,
            boolean phoneNumber,
            OauthProviders oauthProviders,
            boolean tags) {

        /** {@code v1UserParamsV4} (create_users V4) and {@code v1RootUserParamsV5} (create_sub_organization V8). */
        public static final Shape CURRENT =
                new Shape(NewApiKey::read, false, true, OauthProviders.TOKENS_OR_CLAIMS, true);

        /** The same shape without {@code userTags}: a root user of a sub-organization. */
        public Shape root() {
            return new Shape(apiKey, rawCredentialAuthenticators, phoneNumber, oauthProviders, false);
        }

        public Shape oauthProviders(OauthProviders which) {
            return new Shape(apiKey, rawCredentialAuthenticators, phoneNumber, which, tags);
        }

        public Shape withoutPhoneNumber() {
            return new Shape(apiKey, rawCredentialAuthenticators, false, oauthProviders, tags);
        }

        /** API keys without {@code curveType} ({@code apiApiKeyParams}): P-256. */
        public Shape p256ApiKeys() {
            return new Shape(NewApiKey::readP256, rawCredentialAuthenticators, phoneNumber, oauthProviders, tags);
        }

        /** Authenticators as {@code v1AuthenticatorParams}, the browser's raw credential. */
        public Shape withRawCredentialAuthenticators() {
            return new Shape(apiKey, true, phoneNumber, oauthProviders, tags);
        }
    }

    /** The OAuth providers a version's users carry. */
    public enum OauthProviders {
        /** The field does not exist in this version. */
        NONE,
        /** {@code v1OauthProviderParams}: an {@code oidcToken}. */
        TOKENS_ONLY,
        /** {@code v1OauthProviderParamsV2}: an {@code oidcToken} or {@code oidcClaims}. */
        TOKENS_OR_CLAIMS
    }

    /** Reads a user of the given shape. */
    public static NewUser read(Params p, Shape shape, AttestationVerifier attestations, OidcVerifier oidc) {
        String name = UserFields.requiredName(p, "userName");
        Optional<String> email = UserFields.optionalEmail(p, "userEmail");
        Optional<String> phone =
                shape.phoneNumber() ? UserFields.optionalPhone(p, "userPhoneNumber") : Optional.empty();
        List<NewApiKey> apiKeys = p.requiredObjects("apiKeys", shape.apiKey());
        List<NewAuthenticator> authenticators = p.requiredObjects(
                "authenticators",
                a -> shape.rawCredentialAuthenticators()
                        ? NewAuthenticator.readV1(a, attestations)
                        : NewAuthenticator.read(a, attestations));
        List<NewOauthProvider> oauthProviders = shape.oauthProviders() == OauthProviders.NONE
                ? List.of()
                : p.requiredObjects(
                        "oauthProviders",
                        o -> NewOauthProvider.read(o, oidc, shape.oauthProviders() == OauthProviders.TOKENS_ONLY));
        List<String> tagIds = shape.tags() ? p.requiredStrings("userTags") : List.of();
        if (apiKeys.isEmpty()
                && authenticators.isEmpty()
                && email.isEmpty()
                && phone.isEmpty()
                && oauthProviders.isEmpty()) {
            throw ApiException.badField(
                    p.path(),
                    "needs at least one credential: an API key, an authenticator, an "
                            + "OAuth provider, an email or a phone number");
        }
        return new NewUser(name, email, phone, apiKeys, authenticators, tagIds, oauthProviders);
    }

    /**
     * Reads {@code v1ApiOnlyUserParams} (create_api_only_users): a name, an optional email, tags and P-256 API keys,
     * at least one, as an API-only user has no other way in.
     */
    public static NewUser readApiOnly(Params p) {
        String name = UserFields.requiredName(p, "userName");
        Optional<String> email = UserFields.optionalEmail(p, "userEmail");
        List<String> tagIds = p.requiredStrings("userTags");
        List<NewApiKey> apiKeys = p.requiredObjects("apiKeys", NewApiKey::readP256);
        if (apiKeys.isEmpty()) {
            throw ApiException.badField(p.pathOf("apiKeys"), "must hold at least one API key");
        }
        return new NewUser(name, email, Optional.empty(), apiKeys, List.of(), tagIds);
    }
}
