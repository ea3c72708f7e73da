package dev.keyhaven.server.user;

import dev.keyhaven.server.tx.Tx;
import java.util.Collection;
import java.util.List;
import java.util.Optional;

/** Storage of users, their credentials and tags. */
public interface UserRepository {

    /**
     * Serialises concurrent changes to the organization's set of users and tags until the transaction ends, so that
     * limit checks cannot race.
     */
    void lockOrganization(Tx tx, String organizationId);

    /** Inserts a user; the organization's user count is kept by {@link #reserveUsers}. */
    void insert(Tx tx, User user);

    /**
     * Adds {@code count} users to the organization's user count unless that would exceed {@code limit}. The count
     * row stays locked until the transaction ends, so callers reserve as late as they can.
     *
     * @return false (and nothing changed) when the limit would be exceeded
     */
    boolean reserveUsers(Tx tx, String organizationId, int count, int limit);

    /** Serialises concurrent changes to one user's credentials until the transaction ends. */
    void lockUser(Tx tx, String organizationId, String userId);

    Optional<User> find(Tx tx, String organizationId, String userId);

    /** The organization's users, oldest first. */
    List<User> list(Tx tx, String organizationId);

    /** The user of the organization who has this email (compared case-insensitively), if any. */
    Optional<String> userWithEmail(Tx tx, String organizationId, String email);

    /** Stores a user's changed name, email and phone number. */
    void update(Tx tx, User user);

    /** Deletes the user with its API keys, authenticators, OAuth providers and tag memberships. */
    void delete(Tx tx, String organizationId, String userId);

    /** The ids of the organization's root-quorum members. */
    List<String> rootQuorumUserIds(Tx tx, String organizationId);

    void insertApiKey(Tx tx, ApiKey key);

    Optional<ApiKey> findApiKey(Tx tx, String organizationId, String apiKeyId);

    /** API keys of one user (oldest first), or of the whole organization when {@code userId} is empty. */
    List<ApiKey> apiKeys(Tx tx, String organizationId, Optional<String> userId);

    boolean publicKeyInUse(Tx tx, String organizationId, String publicKey);

    void deleteApiKey(Tx tx, String organizationId, String apiKeyId);

    void insertAuthenticator(Tx tx, Authenticator authenticator);

    Optional<Authenticator> findAuthenticator(Tx tx, String organizationId, String authenticatorId);

    /** Authenticators of one user, or of the whole organization when {@code userId} is empty. */
    List<Authenticator> authenticators(Tx tx, String organizationId, Optional<String> userId);

    boolean credentialIdInUse(Tx tx, String organizationId, String credentialId);

    void deleteAuthenticator(Tx tx, String organizationId, String authenticatorId);

    void insertTag(Tx tx, Tag tag);

    Optional<Tag> findTag(Tx tx, String organizationId, String tagId);

    Optional<Tag> findTagByName(Tx tx, String organizationId, TagType type, String name);

    List<Tag> tags(Tx tx, String organizationId, Optional<TagType> type);

    int countTags(Tx tx, String organizationId);

    void tagUser(Tx tx, String tagId, String userId);

    void untagUser(Tx tx, String tagId, String userId);

    /** The users carrying a tag. */
    List<String> usersWithTag(Tx tx, String tagId);

    void renameTag(Tx tx, String tagId, String name, java.time.Instant updatedAt);

    /** Deletes a tag and its memberships. */
    void deleteTag(Tx tx, String organizationId, String tagId);

    /** The tag ids of one user. */
    List<String> tagIdsOfUser(Tx tx, String userId);

    /** The tag ids of each user of the organization that has any. */
    java.util.Map<String, List<String>> userTagIds(Tx tx, String organizationId);

    /** Whether every id names a user of the organization; returns the ones that do not. */
    List<String> missingUsers(Tx tx, String organizationId, Collection<String> userIds);

    /** Whether this organization is a sub-organization (limits differ). */
    boolean isSubOrganization(Tx tx, String organizationId);
}
