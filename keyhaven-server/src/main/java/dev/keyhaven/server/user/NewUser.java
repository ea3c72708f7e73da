package dev.keyhaven.server.user;

import dev.keyhaven.server.api.ApiException;
import dev.keyhaven.server.api.ErrorCode;
import dev.keyhaven.server.api.Params;
import java.util.List;
import java.util.Optional;

/**
 * A validated user to create: {@code v1UserParamsV4} (create_users) or {@code v1RootUserParamsV5} (the root users of
 * a sub-organization, which carry no tags).
 */
public record NewUser(String name, Optional<String> email, Optional<String> phoneNumber, List<NewApiKey> apiKeys,
        List<NewAuthenticator> authenticators, List<String> tagIds) {

    /** Reads a user; {@code withTags} is false for root users, whose parameters have no {@code userTags}. */
    public static NewUser read(Params p, AttestationVerifier attestations, boolean withTags) {
        String name = UserFields.requiredName(p, "userName");
        Optional<String> email = UserFields.optionalEmail(p, "userEmail");
        Optional<String> phone = UserFields.optionalPhone(p, "userPhoneNumber");
        List<NewApiKey> apiKeys = p.requiredObjects("apiKeys", NewApiKey::read);
        List<NewAuthenticator> authenticators = p.requiredObjects("authenticators",
                a -> NewAuthenticator.read(a, attestations));
        List<Params> oauthProviders = p.requiredObjects("oauthProviders", o -> o);
        if (!oauthProviders.isEmpty()) {
            throw new ApiException(ErrorCode.UNIMPLEMENTED, "OAuth providers on users are not supported by this "
                    + "server yet; send an empty oauthProviders array", p.pathOf("oauthProviders"));
        }
        List<String> tagIds = withTags ? p.requiredStrings("userTags") : List.of();
        if (apiKeys.isEmpty() && authenticators.isEmpty() && email.isEmpty() && phone.isEmpty()) {
            throw ApiException.badField(p.path(), "needs at least one credential: an API key, an authenticator, an "
                    + "email or a phone number");
        }
        return new NewUser(name, email, phone, apiKeys, authenticators, tagIds);
    }
}
