package dev.keyhaven.server.privatekey;

import dev.keyhaven.server.api.ApiException;
import dev.keyhaven.server.tx.Tx;
import dev.keyhaven.server.user.Tag;
import dev.keyhaven.server.user.TagType;
import dev.keyhaven.server.user.UserRepository;
import java.util.List;
import java.util.Optional;

/**
 * Private-key tags are rows of the organization's tag table (shared with user tags, and counted against the same
 * limit) with their own memberships. This is the part of the user repository they use.
 */
public final class PrivateKeyTags {
    private final UserRepository tags;

    public PrivateKeyTags(UserRepository tags) {
        this.tags = tags;
    }

    void lockOrganization(Tx tx, String organizationId) {
        tags.lockOrganization(tx, organizationId);
    }

    Optional<Tag> find(Tx tx, String organizationId, String tagId) {
        return tags.findTag(tx, organizationId, tagId).filter(t -> t.type() == TagType.TAG_TYPE_PRIVATE_KEY);
    }

    /** Fails the activity naming the first id that is not a private-key tag of the organization. */
    void requireAll(Tx tx, String organizationId, List<String> tagIds) {
        for (String id : tagIds) {
            if (find(tx, organizationId, id).isEmpty()) {
                throw ApiException.notFound("no private key tag found with id " + id);
            }
        }
    }
}
