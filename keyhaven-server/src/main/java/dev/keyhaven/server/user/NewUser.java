package dev.keyhaven.server.user;

import dev.keyhaven.server.api.ApiException;
import dev.keyhaven.server.api.ErrorCode;
import dev.keyhaven.server.api.Params;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * A validated user to create: {@code v1UserParamsV4} (create_users) or {@code v1RootUserParamsV5} (the root users of
 * a sub-organization, which carry no tags).
 */
public record NewUser(String name, Optional<String> email, Optional<String> phoneNumber, List<NewApiKey> apiKeys,
        List<NewAuthenticator> authenticators, List<String> tagIds) {

    private static final Pattern EMAIL = Pattern.compile("[^@\\s]+@[^@\\s]+\\.[^@\\s]+");
    private static final Pattern E164 = Pattern.compile("\\+[1-9][0-9]{6,14}");
    private static final int MAX_NAME = 256;

    /** Reads a user; {@code withTags} is false for root users, whose parameters have no {@code userTags}. */
    public static NewUser read(Params p, AttestationVerifier attestations, boolean withTags) {
        String name = p.requiredString("userName");
        if (name.length() > MAX_NAME) {
            throw ApiException.badField(p.pathOf("userName"), "is longer than " + MAX_NAME + " characters");
        }
        Optional<String> email = p.optionalString("userEmail");
        if (email.isPresent() && (email.get().length() > 254 || !EMAIL.matcher(email.get()).matches())) {
            throw ApiException.badField(p.pathOf("userEmail"), "is not a valid email address");
        }
        Optional<String> phone = p.optionalString("userPhoneNumber");
        if (phone.isPresent() && !E164.matcher(phone.get()).matches()) {
            throw ApiException.badField(p.pathOf("userPhoneNumber"), "is not an E.164 phone number (+ and digits)");
        }
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
