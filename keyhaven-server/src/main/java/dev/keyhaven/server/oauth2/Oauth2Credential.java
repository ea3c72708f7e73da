package dev.keyhaven.server.oauth2;

import dev.keyhaven.server.custody.SealedSecret;
import java.time.Instant;

/**
 * A stored OAuth 2.0 client credential. {@code encryptedClientSecret} is the envelope exactly as the client sent it
 * (ciphertext to the credential-encryption key, what the views show); {@code secretSealed} is the plain secret sealed
 * under the KEK for this organization and credential. Neither is the plain secret.
 */
public record Oauth2Credential(
        String id,
        String organizationId,
        Oauth2Provider provider,
        String clientId,
        String encryptedClientSecret,
        SealedSecret secretSealed,
        Instant createdAt,
        Instant updatedAt) {}
