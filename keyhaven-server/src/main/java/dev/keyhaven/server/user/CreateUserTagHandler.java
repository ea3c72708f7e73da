package dev.keyhaven.server.user;

import dev.keyhaven.server.activity.ActivityAction;
import dev.keyhaven.server.activity.ActivityContext;
import dev.keyhaven.server.activity.ActivityHandler;
import dev.keyhaven.server.activity.ActivityResource;
import dev.keyhaven.server.activity.ActivitySpec;
import dev.keyhaven.server.activity.ActivityType;
import dev.keyhaven.server.activity.ActivityVersion;
import dev.keyhaven.server.api.ApiException;
import dev.keyhaven.server.api.ErrorCode;
import dev.keyhaven.server.api.Params;
import java.util.List;

/** {@code create_user_tag}: creates a user tag, unique by name in the organization, and applies it to users. */
final class CreateUserTagHandler implements ActivityHandler<CreateUserTagHandler.Intent> {
    private static final ActivitySpec SPEC = ActivitySpec.of(
            "create_user_tag",
            ActivityResource.USER,
            ActivityAction.CREATE,
            new ActivityVersion(ActivityType.CREATE_USER_TAG, "createUserTagIntent", "createUserTagResult"));

    private final UserRepository users;
    private final UserLimits limits;

    public CreateUserTagHandler(UserRepository users, UserLimits limits) {
        this.users = users;
        this.limits = limits;
    }

    /** The validated parameters. */
    public record Intent(String userTagName, List<String> userIds) {}

    @Override
    public ActivitySpec spec() {
        return SPEC;
    }

    @Override
    public Intent parse(Params parameters) {
        return new Intent(parameters.requiredString("userTagName"), parameters.requiredIdsOrNone("userIds"));
    }

    @Override
    public Object execute(ActivityContext context, Intent intent) {
        String org = context.organizationId();
        users.lockOrganization(context.tx(), org);
        int limit = users.isSubOrganization(context.tx(), org)
                ? limits.tagsPerSubOrganization()
                : limits.tagsPerOrganization();
        if (users.countTags(context.tx(), org) >= limit) {
            throw new ApiException(ErrorCode.LIMIT_EXCEEDED, "organization has exceeded maximum tags (" + limit + ")");
        }
        if (users.findTagByName(context.tx(), org, TagType.TAG_TYPE_USER, intent.userTagName())
                .isPresent()) {
            throw ApiException.badRequest("a user tag named '" + intent.userTagName() + "' already exists");
        }
        List<String> missing = users.missingUsers(context.tx(), org, intent.userIds());
        ApiException.requireNoneMissing("user", missing);
        Tag tag = new Tag(
                context.ids().next(), org, intent.userTagName(), TagType.TAG_TYPE_USER, context.now(), context.now());
        users.insertTag(context.tx(), tag);
        intent.userIds().forEach(userId -> users.tagUser(context.tx(), tag.id(), userId));
        return new Result(tag.id(), intent.userIds());
    }

    /** {@code createUserTagResult}. */
    public record Result(String userTagId, List<String> userIds) {}
}
