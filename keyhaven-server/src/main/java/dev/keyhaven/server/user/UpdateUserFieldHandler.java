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

/**
 * {@code update_user_name}, {@code update_user_email} and {@code update_user_phone_number}: each changes one field
 * of a user. One instance per {@link Field}; the three activities differ only in the field they carry.
 */
final class UpdateUserFieldHandler implements ActivityHandler<UserChange> {
    private final UserUpdater updater;
    private final Field field;

    public UpdateUserFieldHandler(UserUpdater updater, Field field) {
        this.updater = updater;
        this.field = field;
    }

    /** The field an instance updates, with its activity's wire names. */
    public enum Field {
        NAME(
                "update_user_name",
                ActivityType.UPDATE_USER_NAME,
                "updateUserNameIntent",
                "updateUserNameResult",
                "userName"),
        EMAIL(
                "update_user_email",
                ActivityType.UPDATE_USER_EMAIL,
                "updateUserEmailIntent",
                "updateUserEmailResult",
                "userEmail"),
        PHONE_NUMBER(
                "update_user_phone_number",
                ActivityType.UPDATE_USER_PHONE_NUMBER,
                "updateUserPhoneNumberIntent",
                "updateUserPhoneNumberResult",
                "userPhoneNumber");

        private final ActivitySpec spec;
        private final String member;

        Field(String operation, ActivityType type, String intentKey, String resultKey, String member) {
            this.spec = ActivitySpec.of(
                    operation,
                    ActivityResource.USER,
                    ActivityAction.UPDATE,
                    new ActivityVersion(type, intentKey, resultKey));
            this.member = member;
        }
    }

    @Override
    public ActivitySpec spec() {
        return field.spec;
    }

    @Override
    public UserChange parse(Params p) {
        String userId = p.requiredString("userId");
        if (p.has("verificationToken")) {
            throw new ApiException(
                    ErrorCode.UNIMPLEMENTED,
                    "verificationToken (OTP-verified contact changes) is not " + "supported by this server yet",
                    p.pathOf("verificationToken"));
        }
        return switch (field) {
            case NAME -> UserChange.name(userId, UserFields.requiredName(p, field.member));
            case EMAIL -> UserChange.email(userId, UserFields.requiredEmail(p, field.member));
            case PHONE_NUMBER -> UserChange.phoneNumber(userId, UserFields.requiredPhone(p, field.member));
        };
    }

    @Override
    public Object execute(ActivityContext context, UserChange change) {
        updater.apply(context.tx(), context.organizationId(), change, context.now());
        return new UpdateUserHandler.Result(change.userId());
    }
}
