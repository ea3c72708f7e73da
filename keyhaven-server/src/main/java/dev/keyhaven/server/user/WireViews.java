package dev.keyhaven.server.user;

import dev.keyhaven.server.api.WireTime;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The wire forms of users and their credentials and tags ({@code v1User}, {@code v1ApiKey},
 * {@code v1Authenticator}, {@code v1OauthProvider}, {@code datav1Tag}), with every required member present.
 */
public final class WireViews {
    private WireViews() {}

    /** {@code v1User}. MFA policies are always empty: Keyhaven does not manage them yet. */
    public record WireUser(
            String userId,
            String userName,
            Optional<String> userEmail,
            Optional<String> userPhoneNumber,
            List<WireAuthenticator> authenticators,
            List<WireApiKey> apiKeys,
            List<String> userTags,
            List<WireOauthProvider> oauthProviders,
            WireTime createdAt,
            WireTime updatedAt,
            List<Object> mfaPolicies) {}

    /** {@code externaldatav1Credential}. */
    public record WireCredential(String publicKey, String type) {}

    /** {@code v1ApiKey}. */
    public record WireApiKey(
            WireCredential credential,
            String apiKeyId,
            String apiKeyName,
            WireTime createdAt,
            WireTime updatedAt,
            Optional<String> expirationSeconds) {}

    /** {@code v1Authenticator}. */
    public record WireAuthenticator(
            List<String> transports,
            String attestationType,
            String aaguid,
            String credentialId,
            String model,
            WireCredential credential,
            String authenticatorId,
            String authenticatorName,
            WireTime createdAt,
            WireTime updatedAt) {}

    /** {@code v1OauthProvider}. */
    public record WireOauthProvider(
            String providerId,
            String providerName,
            String issuer,
            String audience,
            String subject,
            WireTime createdAt,
            WireTime updatedAt) {}

    public static WireOauthProvider oauthProvider(OauthProvider p) {
        return new WireOauthProvider(
                p.id(),
                p.name(),
                p.issuer(),
                p.audience(),
                p.subject(),
                WireTime.of(p.createdAt()),
                WireTime.of(p.updatedAt()));
    }

    /** {@code datav1Tag}. */
    public record WireTag(String tagId, String tagName, String tagType, WireTime createdAt, WireTime updatedAt) {}

    public static WireApiKey apiKey(ApiKey key) {
        return new WireApiKey(
                new WireCredential(key.publicKey(), key.credentialType()),
                key.id(),
                key.name(),
                WireTime.of(key.createdAt()),
                WireTime.of(key.updatedAt()),
                key.expirationSeconds().map(String::valueOf));
    }

    public static WireAuthenticator authenticator(Authenticator a) {
        return new WireAuthenticator(
                a.transports().stream().map(AuthenticatorTransport::wireName).toList(),
                a.attestationType(),
                a.aaguid(),
                a.credentialId(),
                a.model(),
                new WireCredential(a.publicKey(), "CREDENTIAL_TYPE_WEBAUTHN_AUTHENTICATOR"),
                a.id(),
                a.name(),
                WireTime.of(a.createdAt()),
                WireTime.of(a.updatedAt()));
    }

    public static WireTag tag(Tag tag) {
        return new WireTag(
                tag.id(),
                tag.name(),
                tag.type().wireName(),
                WireTime.of(tag.createdAt()),
                WireTime.of(tag.updatedAt()));
    }

    /** A user with the credentials and tags given (each list already filtered to this user). */
    public static WireUser user(
            User user,
            List<ApiKey> apiKeys,
            List<Authenticator> authenticators,
            List<String> tagIds,
            List<OauthProvider> oauthProviders) {
        return new WireUser(
                user.id(),
                user.name(),
                user.email(),
                user.phoneNumber(),
                authenticators.stream().map(WireViews::authenticator).toList(),
                apiKeys.stream().map(WireViews::apiKey).toList(),
                List.copyOf(tagIds),
                oauthProviders.stream().map(WireViews::oauthProvider).toList(),
                WireTime.of(user.createdAt()),
                WireTime.of(user.updatedAt()),
                List.of());
    }

    /** Every user given, with the organization-wide credential and tag lists grouped per user. */
    public static List<WireUser> users(
            List<User> users,
            List<ApiKey> apiKeys,
            List<Authenticator> authenticators,
            Map<String, List<String>> tagIds,
            List<OauthProvider> oauthProviders) {
        Map<String, List<ApiKey>> keysByUser = apiKeys.stream().collect(Collectors.groupingBy(ApiKey::userId));
        Map<String, List<OauthProvider>> providersByUser =
                oauthProviders.stream().collect(Collectors.groupingBy(OauthProvider::userId));
        Map<String, List<Authenticator>> authenticatorsByUser =
                authenticators.stream().collect(Collectors.groupingBy(Authenticator::userId));
        return users.stream()
                .map(u -> user(
                        u,
                        keysByUser.getOrDefault(u.id(), List.of()),
                        authenticatorsByUser.getOrDefault(u.id(), List.of()),
                        tagIds.getOrDefault(u.id(), List.of()),
                        providersByUser.getOrDefault(u.id(), List.of())))
                .toList();
    }
}
