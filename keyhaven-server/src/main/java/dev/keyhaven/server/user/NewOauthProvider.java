package dev.keyhaven.server.user;

import dev.keyhaven.server.api.ApiException;
import dev.keyhaven.server.api.Params;
import dev.keyhaven.server.oidc.OidcVerifier;
import dev.keyhaven.server.oidc.VerifiedIdToken;
import java.util.Optional;

/**
 * A validated OAuth provider to register ({@code v1OauthProviderParamsV2}): either an {@code oidcToken}, verified
 * now (signature, issuer, audience, lifetime; no nonce) with the identity taken from it, or {@code oidcClaims}
 * ({@code iss}, {@code sub}, {@code aud}) registered as given.
 */
public record NewOauthProvider(String name, String issuer, String audience, String subject) {

    /**
     * Reads one provider; {@code tokenRequired} refuses {@code oidcClaims} (the V1 params and the root users of
     * create_sub_organization V7 carry a token).
     */
    public static NewOauthProvider read(Params p, OidcVerifier verifier, boolean tokenRequired) {
        String name = p.requiredString("providerName");
        if (name.isBlank() || name.length() > 256) {
            throw ApiException.badField(p.pathOf("providerName"), "must be 1 to 256 characters");
        }
        Optional<String> token = p.optionalString("oidcToken").filter(t -> !t.isBlank());
        Optional<Params> claims = tokenRequired ? Optional.empty() : p.optionalObject("oidcClaims");
        if (token.isPresent() == claims.isPresent()) {
            throw ApiException.badField(
                    p.path(), tokenRequired ? "needs an oidcToken" : "needs exactly one of oidcToken and oidcClaims");
        }
        if (token.isPresent()) {
            VerifiedIdToken verified = verifier.verify(token.get(), Optional.empty());
            return new NewOauthProvider(name, verified.issuer(), verified.audience(), verified.subject());
        }
        Params c = claims.get();
        return new NewOauthProvider(name, claim(c, "iss"), claim(c, "aud"), claim(c, "sub"));
    }

    private static String claim(Params claims, String name) {
        String value = claims.requiredString(name);
        if (value.isBlank()) {
            throw ApiException.badField(claims.pathOf(name), "must not be blank");
        }
        return value;
    }
}
