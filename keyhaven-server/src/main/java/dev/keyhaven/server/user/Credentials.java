package dev.keyhaven.server.user;

import dev.keyhaven.server.api.ApiException;
import dev.keyhaven.server.api.ErrorCode;
import dev.keyhaven.server.api.Ids;
import dev.keyhaven.server.tx.Tx;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Adds credentials to a user within the limits: at most N long-lived API keys (more is a 429), at most N expiring
 * keys (an extra one evicts expired keys first, else the oldest expiring key, as the real service does), at most N
 * authenticators. A public key or credential id is registered at most once per organization. Changes to one
 * user's credentials are serialised, so concurrent additions cannot exceed the limits together.
 */
public final class Credentials {
    private final UserRepository users;
    private final UserLimits limits;

    public Credentials(UserRepository users, UserLimits limits) {
        this.users = users;
        this.limits = limits;
    }

    /** Adds {@code keys} to an existing user and returns their ids, in order. */
    public List<String> addApiKeys(
            Tx tx, String organizationId, String userId, List<NewApiKey> keys, Instant now, Ids ids) {
        users.lockUser(tx, organizationId, userId);
        return addApiKeys(
                tx, organizationId, userId, users.apiKeys(tx, organizationId, Optional.of(userId)), keys, now, ids);
    }

    /** Adds {@code keys} to a user created in this transaction (who has no credentials yet). */
    List<String> addApiKeysToNewUser(
            Tx tx, String organizationId, String userId, List<NewApiKey> keys, Instant now, Ids ids) {
        return keys.isEmpty() ? List.of() : addApiKeys(tx, organizationId, userId, List.of(), keys, now, ids);
    }

    private List<String> addApiKeys(
            Tx tx,
            String organizationId,
            String userId,
            List<ApiKey> existing,
            List<NewApiKey> keys,
            Instant now,
            Ids ids) {
        long longLived = existing.stream().filter(k -> !k.isExpiring()).count()
                + keys.stream().filter(k -> k.expirationSeconds().isEmpty()).count();
        if (longLived > limits.longLivedApiKeysPerUser()) {
            throw new ApiException(
                    ErrorCode.LIMIT_EXCEEDED,
                    "user has exceeded maximum long-lived api keys (" + limits.longLivedApiKeysPerUser() + ")");
        }
        long newExpiring =
                keys.stream().filter(k -> k.expirationSeconds().isPresent()).count();
        if (newExpiring > limits.expiringApiKeysPerUser()) {
            throw new ApiException(
                    ErrorCode.LIMIT_EXCEEDED,
                    "user has exceeded maximum short-lived api keys (" + limits.expiringApiKeysPerUser() + ")");
        }
        evictExpiring(tx, organizationId, existing, newExpiring, now);
        Set<String> seen = new HashSet<>();
        List<String> created = new ArrayList<>();
        for (NewApiKey key : keys) {
            if (!seen.add(key.publicKey()) || users.publicKeyInUse(tx, organizationId, key.publicKey())) {
                throw ApiException.badRequest(
                        "public key " + key.publicKey() + " is already registered in this organization");
            }
            Optional<Instant> expiresAt = key.expirationSeconds().map(now::plusSeconds);
            ApiKey apiKey = new ApiKey(
                    ids.next(),
                    organizationId,
                    userId,
                    key.name(),
                    key.publicKey(),
                    key.curve(),
                    key.credentialType(),
                    key.expirationSeconds(),
                    expiresAt,
                    now,
                    now);
            users.insertApiKey(tx, apiKey);
            created.add(apiKey.id());
        }
        return created;
    }

    /** Makes room for {@code incoming} expiring keys: expired ones go first, then the oldest. */
    private void evictExpiring(Tx tx, String organizationId, List<ApiKey> existing, long incoming, Instant now) {
        List<ApiKey> expiring =
                new ArrayList<>(existing.stream().filter(ApiKey::isExpiring).toList());
        long excess = expiring.size() + incoming - limits.expiringApiKeysPerUser();
        if (excess <= 0) {
            return;
        }
        expiring.sort(
                Comparator.comparing((ApiKey k) -> k.expiresAt().orElseThrow().isAfter(now))
                        .thenComparing(ApiKey::createdAt)
                        .thenComparing(ApiKey::id));
        for (int i = 0; i < excess; i++) {
            users.deleteApiKey(tx, organizationId, expiring.get(i).id());
        }
    }

    /** Adds {@code authenticators} to an existing user and returns their ids, in order. */
    public List<String> addAuthenticators(
            Tx tx, String organizationId, String userId, List<NewAuthenticator> authenticators, Instant now, Ids ids) {
        users.lockUser(tx, organizationId, userId);
        return addAuthenticators(
                tx,
                organizationId,
                userId,
                users.authenticators(tx, organizationId, Optional.of(userId)).size(),
                authenticators,
                now,
                ids);
    }

    /** Adds {@code authenticators} to a user created in this transaction. */
    List<String> addAuthenticatorsToNewUser(
            Tx tx, String organizationId, String userId, List<NewAuthenticator> authenticators, Instant now, Ids ids) {
        return authenticators.isEmpty()
                ? List.of()
                : addAuthenticators(tx, organizationId, userId, 0, authenticators, now, ids);
    }

    private List<String> addAuthenticators(
            Tx tx,
            String organizationId,
            String userId,
            int existing,
            List<NewAuthenticator> authenticators,
            Instant now,
            Ids ids) {
        if (existing + authenticators.size() > limits.authenticatorsPerUser()) {
            throw new ApiException(
                    ErrorCode.LIMIT_EXCEEDED,
                    "user has exceeded maximum authenticators (" + limits.authenticatorsPerUser() + ")");
        }
        Set<String> seen = new HashSet<>();
        List<String> created = new ArrayList<>();
        for (NewAuthenticator a : authenticators) {
            RegisteredPasskey passkey = a.passkey();
            if (!seen.add(passkey.credentialId())
                    || users.credentialIdInUse(tx, organizationId, passkey.credentialId())) {
                throw ApiException.badRequest("authenticator credential id " + passkey.credentialId()
                        + " is already registered in this organization");
            }
            Authenticator authenticator = new Authenticator(
                    ids.next(),
                    organizationId,
                    userId,
                    a.name(),
                    passkey.credentialId(),
                    passkey.publicKey(),
                    passkey.publicKeyCose(),
                    passkey.aaguid(),
                    passkey.attestationType(),
                    a.transports(),
                    "",
                    passkey.signCount(),
                    passkey.rpId(),
                    now,
                    now);
            users.insertAuthenticator(tx, authenticator);
            created.add(authenticator.id());
        }
        return created;
    }
}
