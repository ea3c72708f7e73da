package dev.keyhaven.server.user;

import dev.keyhaven.server.activity.ActivityAction;
import dev.keyhaven.server.activity.ActivityContext;
import dev.keyhaven.server.activity.ActivityHandler;
import dev.keyhaven.server.activity.ActivityResource;
import dev.keyhaven.server.activity.ActivitySpec;
import dev.keyhaven.server.activity.ActivityType;
import dev.keyhaven.server.activity.ActivityVersion;
import dev.keyhaven.server.api.ApiException;
import dev.keyhaven.server.api.Params;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/** {@code delete_user_tags}: deletes user tags and removes them from their users. */
final class DeleteUserTagsHandler implements ActivityHandler<List<String>> {
    private static final ActivitySpec SPEC = ActivitySpec.of(
            "delete_user_tags",
            ActivityResource.USER,
            ActivityAction.DELETE,
            new ActivityVersion(ActivityType.DELETE_USER_TAGS, "deleteUserTagsIntent", "deleteUserTagsResult"));

    private final UserRepository users;

    public DeleteUserTagsHandler(UserRepository users) {
        this.users = users;
    }

    @Override
    public ActivitySpec spec() {
        return SPEC;
    }

    @Override
    public List<String> parse(Params p) {
        return p.requiredIds("userTagIds", "tag");
    }

    @Override
    public Object execute(ActivityContext context, List<String> tagIds) {
        Set<String> untagged = new LinkedHashSet<>();
        for (String tagId : tagIds) {
            Optional<Tag> tag = users.findTag(context.tx(), context.organizationId(), tagId);
            if (tag.isEmpty() || tag.get().type() != TagType.TAG_TYPE_USER) {
                throw ApiException.notFound("no user tag found with id " + tagId);
            }
            untagged.addAll(users.usersWithTag(context.tx(), tagId));
            users.deleteTag(context.tx(), context.organizationId(), tagId);
        }
        return new Result(tagIds, List.copyOf(untagged));
    }

    /** {@code deleteUserTagsResult}: the deleted tags and the users that carried them. */
    public record Result(List<String> userTagIds, List<String> userIds) {}
}
