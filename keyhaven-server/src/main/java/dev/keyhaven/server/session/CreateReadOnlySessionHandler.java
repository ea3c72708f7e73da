package dev.keyhaven.server.session;

import dev.keyhaven.server.activity.ActivityAction;
import dev.keyhaven.server.activity.ActivityContext;
import dev.keyhaven.server.activity.ActivityHandler;
import dev.keyhaven.server.activity.ActivityResource;
import dev.keyhaven.server.activity.ActivitySpec;
import dev.keyhaven.server.activity.ActivityType;
import dev.keyhaven.server.activity.ActivityVersion;
import dev.keyhaven.server.api.ApiException;
import dev.keyhaven.server.api.Params;
import dev.keyhaven.server.organization.OrganizationRepository;

/**
 * {@code create_read_only_session}: a read-only session of the submitting user for {@code X-Session}
 * ({@code createReadOnlySessionResult {organizationId, organizationName, userId, username, session,
 * sessionExpiry}}, the expiry in seconds since the epoch).
 */
final class CreateReadOnlySessionHandler implements ActivityHandler<Params> {
    private static final ActivitySpec SPEC = ActivitySpec.of(
            "create_read_only_session",
            ActivityResource.AUTH,
            ActivityAction.CREATE,
            new ActivityVersion(
                    ActivityType.CREATE_READ_ONLY_SESSION,
                    "createReadOnlySessionIntent",
                    "createReadOnlySessionResult"));

    private final ReadOnlySessions sessions;
    private final OrganizationRepository organizations;

    public CreateReadOnlySessionHandler(ReadOnlySessions sessions, OrganizationRepository organizations) {
        this.sessions = sessions;
        this.organizations = organizations;
    }

    @Override
    public ActivitySpec spec() {
        return SPEC;
    }

    @Override
    public Params parse(Params p) {
        return p;
    }

    @Override
    public Object execute(ActivityContext context, Params p) {
        String org = context.organizationId();
        String userId = context.submitter().userId();
        OrganizationRepository.MemberNames names = organizations
                .memberNames(context.tx(), org, userId)
                .orElseThrow(() ->
                        ApiException.badRequest("create_read_only_session is for a user of this " + "organization"));
        return new Result(
                org,
                names.organizationName(),
                userId,
                names.userName(),
                sessions.issue(org, userId, context.now()),
                Long.toString(context.now().getEpochSecond() + ReadOnlySessions.SECONDS));
    }

    /** {@code createReadOnlySessionResult}. */
    public record Result(
            String organizationId,
            String organizationName,
            String userId,
            String username,
            String session,
            String sessionExpiry) {}
}
