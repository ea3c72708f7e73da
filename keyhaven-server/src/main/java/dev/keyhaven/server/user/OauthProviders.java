package dev.keyhaven.server.user;

import dev.keyhaven.server.api.ApiException;
import dev.keyhaven.server.api.ErrorCode;
import dev.keyhaven.server.api.Ids;
import dev.keyhaven.server.tx.Tx;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Registers and removes users' OAuth providers within the rules: at most {@link #PER_USER} per user, and an identity
 * ({@code iss}, {@code aud}, {@code sub}) belongs to one user only within an organization and its
 * sub-organizations, so a login by token finds exactly one user. Changes to one user's providers are serialised.
 */
public final class OauthProviders {
    /** The real service's limit of OAuth providers per user. */
    public static final int PER_USER = 10;

    private final UserRepository users;
    private final OauthProviderRepository providers;

    public OauthProviders(UserRepository users, OauthProviderRepository providers) {
        this.users = users;
        this.providers = providers;
    }

    /** Adds {@code added} to an existing user and returns their ids, in order. */
    public List<String> add(
            Tx tx, String organizationId, String userId, List<NewOauthProvider> added, Instant now, Ids ids) {
        users.lockUser(tx, organizationId, userId);
        return add(
                tx,
                organizationId,
                userId,
                providers.list(tx, organizationId, Optional.of(userId)).size(),
                added,
                now,
                ids);
    }

    /** Adds {@code added} to a user created in this transaction. */
    List<String> addToNewUser(
            Tx tx, String organizationId, String userId, List<NewOauthProvider> added, Instant now, Ids ids) {
        return added.isEmpty() ? List.of() : add(tx, organizationId, userId, 0, added, now, ids);
    }

    private List<String> add(
            Tx tx,
            String organizationId,
            String userId,
            int existing,
            List<NewOauthProvider> added,
            Instant now,
            Ids ids) {
        if (existing + added.size() > PER_USER) {
            throw new ApiException(
                    ErrorCode.LIMIT_EXCEEDED, "user has exceeded maximum oauth providers (" + PER_USER + ")");
        }
        Set<List<String>> seen = new HashSet<>();
        List<String> created = new ArrayList<>();
        for (NewOauthProvider p : added) {
            if (!seen.add(List.of(p.issuer(), p.audience(), p.subject()))
                    || !providers
                            .withIdentity(tx, organizationId, p.issuer(), p.audience(), p.subject())
                            .isEmpty()) {
                throw new ApiException(
                        ErrorCode.OAUTH_PROVIDER_ALREADY_EXISTS,
                        "an OAuth provider with issuer "
                                + p.issuer()
                                + ", this audience and this subject is already registered to a user of this "
                                + "organization or a related one");
            }
            OauthProvider provider = new OauthProvider(
                    ids.next(), organizationId, userId, p.name(), p.issuer(), p.audience(), p.subject(), now, now);
            providers.insert(tx, provider);
            created.add(provider.id());
        }
        return created;
    }

    /** Removes providers of one user, all or nothing: a 404 names every id that is not one of theirs. */
    public void delete(Tx tx, String organizationId, String userId, List<String> providerIds) {
        if (users.find(tx, organizationId, userId).isEmpty()) {
            throw ApiException.notFound("no user found with id " + userId);
        }
        users.lockUser(tx, organizationId, userId);
        List<String> missing = providerIds.stream()
                .filter(id -> providers
                        .find(tx, organizationId, id)
                        .filter(p -> p.userId().equals(userId))
                        .isEmpty())
                .toList();
        if (!missing.isEmpty()) {
            throw ApiException.notFound(
                    "no oauth provider found with id " + String.join(", ", missing) + " for user " + userId);
        }
        providerIds.forEach(id -> providers.delete(tx, organizationId, id));
    }
}
