package dev.keyhaven.server.session;

import dev.keyhaven.server.activity.ActivityAction;
import dev.keyhaven.server.activity.ActivityContext;
import dev.keyhaven.server.activity.ActivityHandler;
import dev.keyhaven.server.activity.ActivityResource;
import dev.keyhaven.server.activity.ActivitySpec;
import dev.keyhaven.server.activity.ActivityType;
import dev.keyhaven.server.activity.ActivityVersion;
import dev.keyhaven.server.activity.PolicyFacts;
import dev.keyhaven.server.api.ApiException;
import dev.keyhaven.server.api.Params;
import dev.keyhaven.server.state.StateReads;
import java.util.Optional;

/**
 * {@code stamp_login}: the submitting user (already authenticated by their stamp) opens a session for
 * {@code publicKey}; {@code stampLoginResult {session}}. Session profiles are accepted by id but not enforced.
 */
final class StampLoginHandler implements ActivityHandler<StampLoginHandler.Intent> {
    private static final ActivitySpec SPEC = ActivitySpec.of(
            "stamp_login",
            ActivityResource.AUTH,
            ActivityAction.CREATE,
            new ActivityVersion(ActivityType.STAMP_LOGIN, "stampLoginIntent", "stampLoginResult"));

    private final Sessions sessions;

    public StampLoginHandler(Sessions sessions) {
        this.sessions = sessions;
    }

    /** The session asked for, and the profile it names. */
    public record Intent(Sessions.Request request, Optional<String> sessionProfileId) {}

    @Override
    public ActivitySpec spec() {
        return SPEC;
    }

    @Override
    public Intent parse(Params p) {
        return new Intent(
                new Sessions.Request(
                        Sessions.publicKey(p.requiredString("publicKey"), p.pathOf("publicKey")),
                        Sessions.lifetime(
                                p.optionalUint64("expirationSeconds"),
                                Sessions.DEFAULT_SECONDS,
                                p.pathOf("expirationSeconds")),
                        p.optionalBoolean("invalidateExisting", false)),
                p.optionalString("sessionProfileId").filter(s -> !s.isEmpty()));
    }

    @Override
    public PolicyFacts policyFacts(StateReads organization, Intent intent) {
        return Sessions.loginFacts(intent.sessionProfileId());
    }

    @Override
    public Object execute(ActivityContext context, Intent intent) {
        if (!context.submitter().userOrganizationId().equals(context.organizationId())) {
            throw ApiException.badRequest(
                    "stamp_login opens a session for the submitting user in their own " + "organization");
        }
        return new Result(sessions.open(
                context.tx(),
                context.organizationId(),
                context.submitter().userId(),
                intent.request(),
                context.now(),
                context.ids()));
    }

    /** {@code stampLoginResult}. */
    public record Result(String session) {}
}
