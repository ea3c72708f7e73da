package dev.keyhaven.server.user;

import dev.keyhaven.server.activity.ActivityAction;
import dev.keyhaven.server.activity.ActivityContext;
import dev.keyhaven.server.activity.ActivityHandler;
import dev.keyhaven.server.activity.ActivityResource;
import dev.keyhaven.server.activity.ActivitySpec;
import dev.keyhaven.server.activity.ActivityType;
import dev.keyhaven.server.activity.ActivityVersion;
import dev.keyhaven.server.api.Params;
import java.util.Optional;

/** {@code update_user}: changes a user's name, email, phone number and tags (each optional). */
final class UpdateUserHandler implements ActivityHandler<UserChange> {
    private static final ActivitySpec SPEC = ActivitySpec.of(
            "update_user",
            ActivityResource.USER,
            ActivityAction.UPDATE,
            new ActivityVersion(ActivityType.UPDATE_USER, "updateUserIntent", "updateUserResult"));

    private final UserUpdater updater;

    public UpdateUserHandler(UserUpdater updater) {
        this.updater = updater;
    }

    @Override
    public ActivitySpec spec() {
        return SPEC;
    }

    @Override
    public UserChange parse(Params p) {
        return new UserChange(
                p.requiredString("userId"),
                UserFields.optionalName(p, "userName"),
                UserFields.optionalEmail(p, "userEmail"),
                UserFields.optionalPhone(p, "userPhoneNumber"),
                p.has("userTagIds") ? Optional.of(p.requiredStrings("userTagIds")) : Optional.empty());
    }

    @Override
    public Object execute(ActivityContext context, UserChange change) {
        updater.apply(context.tx(), context.organizationId(), change, context.now());
        return new Result(change.userId());
    }

    /** {@code updateUserResult} (and the results of the single-field updates). */
    public record Result(String userId) {}
}
