package dev.keyhaven.server.user;

import dev.keyhaven.server.api.ApiException;
import dev.keyhaven.server.api.ErrorCode;
import dev.keyhaven.server.api.Ids;
import dev.keyhaven.server.tx.Tx;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * Creates users with their credentials and tag memberships, enforcing the per-organization user limit and the
 * uniqueness of emails. Shared by create_users and by create_sub_organization (root users).
 */
public final class UserCreator {
    private final UserRepository users;
    private final Credentials credentials;
    private final UserLimits limits;
    private final OauthProviders oauthProviders;

    public UserCreator(
            UserRepository users, Credentials credentials, UserLimits limits, OauthProviders oauthProviders) {
        this.users = users;
        this.credentials = credentials;
        this.limits = limits;
        this.oauthProviders = oauthProviders;
    }

    /**
     * Creates {@code newUsers} in the organization and returns their ids, in order. The user limit is reserved last,
     * because the reservation locks the organization's count until the transaction ends: concurrent creations in
     * one organization wait for each other only for the rest of the transaction. Emails and public keys stay unique
     * under concurrency through the store's unique indexes.
     */
    public List<String> create(Tx tx, String organizationId, List<NewUser> newUsers, Instant now, Ids ids) {
        checkEmails(tx, organizationId, newUsers);
        List<String> created = new ArrayList<>();
        for (NewUser n : newUsers) {
            checkTags(tx, organizationId, n.tagIds());
            User user = new User(ids.next(), organizationId, n.name(), n.email(), n.phoneNumber(), now, now);
            users.insert(tx, user);
            credentials.addApiKeysToNewUser(tx, organizationId, user.id(), n.apiKeys(), now, ids);
            credentials.addAuthenticatorsToNewUser(tx, organizationId, user.id(), n.authenticators(), now, ids);
            oauthProviders.addToNewUser(tx, organizationId, user.id(), n.oauthProviders(), now, ids);
            for (String tagId : new HashSet<>(n.tagIds())) {
                users.tagUser(tx, tagId, user.id());
            }
            created.add(user.id());
        }
        if (!users.reserveUsers(tx, organizationId, newUsers.size(), limits.usersPerOrganization())) {
            throw new ApiException(
                    ErrorCode.LIMIT_EXCEEDED,
                    "organization has exceeded maximum users (" + limits.usersPerOrganization() + ")");
        }
        return created;
    }

    private void checkEmails(Tx tx, String organizationId, List<NewUser> newUsers) {
        Set<String> seen = new HashSet<>();
        for (NewUser n : newUsers) {
            Optional<String> email = n.email();
            if (email.isPresent()
                    && (!seen.add(email.get().toLowerCase(Locale.ROOT))
                            || users.userWithEmail(tx, organizationId, email.get())
                                    .isPresent())) {
                throw ApiException.badRequest(
                        "user email " + email.get() + " is already used by another user of this organization");
            }
        }
    }

    private void checkTags(Tx tx, String organizationId, List<String> tagIds) {
        for (String tagId : tagIds) {
            Optional<Tag> tag = users.findTag(tx, organizationId, tagId);
            if (tag.isEmpty() || tag.get().type() != TagType.TAG_TYPE_USER) {
                throw ApiException.notFound("no user tag found with id " + tagId);
            }
        }
    }
}
