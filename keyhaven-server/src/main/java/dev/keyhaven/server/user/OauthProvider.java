package dev.keyhaven.server.user;

import java.time.Instant;

/** An OAuth provider of a user: the OIDC identity ({@code iss}, {@code aud}, {@code sub}) the user signs in with. */
public record OauthProvider(
        String id,
        String organizationId,
        String userId,
        String name,
        String issuer,
        String audience,
        String subject,
        Instant createdAt,
        Instant updatedAt) {}
