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
import java.util.List;
import java.util.Optional;

/**
 * {@code update_user_tag}: renames a tag and adds it to or removes it from users, all or nothing (one transaction;
 * an unknown user fails the activity and changes nothing).
 */
final class UpdateUserTagHandler implements ActivityHandler<UpdateUserTagHandler.Intent> {
    private static final ActivitySpec SPEC = ActivitySpec.of(
            "update_user_tag",
            ActivityResource.USER,
            ActivityAction.UPDATE,
            new ActivityVersion(ActivityType.UPDATE_USER_TAG, "updateUserTagIntent", "updateUserTagResult"));

    private final UserRepository users;

    public UpdateUserTagHandler(UserRepository users) {
        this.users = users;
    }

    /** The validated parameters. */
    public record Intent(String userTagId, Optional<String> newName, List<String> add, List<String> remove) {}

    @Override
    public ActivitySpec spec() {
        return SPEC;
    }

    @Override
    public Intent parse(Params p) {
        return new Intent(
                p.requiredString("userTagId"),
                p.optionalString("newUserTagName"),
                p.requiredIdsOrNone("addUserIds"),
                p.requiredIdsOrNone("removeUserIds"));
    }

    @Override
    public Object execute(ActivityContext context, Intent intent) {
        String org = context.organizationId();
        Tag tag = users.findTag(context.tx(), org, intent.userTagId())
                .filter(t -> t.type() == TagType.TAG_TYPE_USER)
                .orElseThrow(() -> ApiException.notFound("no user tag found with id " + intent.userTagId()));
        List<String> missing = users.missingUsers(
                context.tx(),
                org,
                java.util.stream.Stream.concat(intent.add().stream(), intent.remove().stream())
                        .toList());
        ApiException.requireNoneMissing("user", missing);
        if (intent.newName().isPresent() && !intent.newName().get().equals(tag.name())) {
            if (users.findTagByName(
                            context.tx(),
                            org,
                            TagType.TAG_TYPE_USER,
                            intent.newName().get())
                    .isPresent()) {
                throw ApiException.badRequest(
                        "a user tag named '" + intent.newName().get() + "' already exists");
            }
            users.renameTag(context.tx(), tag.id(), intent.newName().get(), context.now());
        }
        List<String> members = users.usersWithTag(context.tx(), tag.id());
        intent.remove().stream().filter(members::contains).forEach(id -> users.untagUser(context.tx(), tag.id(), id));
        intent.add().stream()
                .filter(id -> !members.contains(id) || intent.remove().contains(id))
                .forEach(id -> users.tagUser(context.tx(), tag.id(), id));
        return new Result(tag.id());
    }

    /** {@code updateUserTagResult}. */
    public record Result(String userTagId) {}
}
