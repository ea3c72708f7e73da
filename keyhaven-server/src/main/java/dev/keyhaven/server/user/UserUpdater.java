package dev.keyhaven.server.user;

import dev.keyhaven.server.api.ApiException;
import dev.keyhaven.server.tx.Tx;
import java.time.Instant;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;

/**
 * Applies a {@link UserChange}: emails stay unique within the organization, tags must be user tags of the
 * organization, and a new tag list replaces the old one.
 */
public final class UserUpdater {
    private final UserRepository users;

    public UserUpdater(UserRepository users) {
        this.users = users;
    }

    public void apply(Tx tx, String organizationId, UserChange change, Instant now) {
        User user = users.find(tx, organizationId, change.userId())
                .orElseThrow(() -> ApiException.notFound("no user found with id " + change.userId()));
        change.email().ifPresent(email -> {
            Optional<String> owner = users.userWithEmail(tx, organizationId, email);
            if (owner.isPresent() && !owner.get().equals(user.id())) {
                throw ApiException.badRequest(
                        "user email " + email + " is already used by another user of this " + "organization");
            }
        });
        users.update(
                tx,
                new User(
                        user.id(),
                        organizationId,
                        change.name().orElse(user.name()),
                        change.email().or(user::email),
                        change.phoneNumber().or(user::phoneNumber),
                        user.createdAt(),
                        now));
        if (change.tagIds().isPresent()) {
            List<String> wanted =
                    List.copyOf(new LinkedHashSet<>(change.tagIds().get()));
            for (String tagId : wanted) {
                Optional<Tag> tag = users.findTag(tx, organizationId, tagId);
                if (tag.isEmpty() || tag.get().type() != TagType.TAG_TYPE_USER) {
                    throw ApiException.notFound("no user tag found with id " + tagId);
                }
            }
            List<String> current = users.tagIdsOfUser(tx, user.id());
            current.stream().filter(id -> !wanted.contains(id)).forEach(id -> users.untagUser(tx, id, user.id()));
            wanted.stream().filter(id -> !current.contains(id)).forEach(id -> users.tagUser(tx, id, user.id()));
        }
    }
}
