package dev.keyhaven.server.user;

import dev.keyhaven.server.api.ApiException;
import dev.keyhaven.server.api.Params;
import dev.keyhaven.server.oidc.OidcVerifier;
import java.util.List;
import java.util.Optional;

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
     * Reads a user; {@code withTags} is false for root users, whose parameters have no {@code userTags};
     * {@code tokensOnly} for the older versions whose OAuth providers are {@code v1OauthProviderParams} (an
     * {@code oidcToken}, no {@code oidcClaims}).
     */
    public static NewUser read(
            Params p, AttestationVerifier attestations, OidcVerifier oidc, boolean withTags, boolean tokensOnly) {
        String name = UserFields.requiredName(p, "userName");
        Optional<String> email = UserFields.optionalEmail(p, "userEmail");
        Optional<String> phone = UserFields.optionalPhone(p, "userPhoneNumber");
        List<NewApiKey> apiKeys = p.requiredObjects("apiKeys", NewApiKey::read);
        List<NewAuthenticator> authenticators =
                p.requiredObjects("authenticators", a -> NewAuthenticator.read(a, attestations));
        List<NewOauthProvider> oauthProviders =
                p.requiredObjects("oauthProviders", o -> NewOauthProvider.read(o, oidc, tokensOnly));
        List<String> tagIds = withTags ? p.requiredStrings("userTags") : List.of();
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
