package dev.keyhaven.server.organization;

import dev.keyhaven.server.activity.ActivityAction;
import dev.keyhaven.server.activity.ActivityContext;
import dev.keyhaven.server.activity.ActivityHandler;
import dev.keyhaven.server.activity.ActivityResource;
import dev.keyhaven.server.activity.ActivitySpec;
import dev.keyhaven.server.activity.ActivityType;
import dev.keyhaven.server.activity.ActivityVersion;
import dev.keyhaven.server.api.ApiException;
import dev.keyhaven.server.api.Params;

/** {@code update_organization_name}: renames the organization. Only the root quorum may do it. */
final class UpdateOrganizationNameHandler implements ActivityHandler<String> {
    private static final ActivitySpec SPEC = ActivitySpec.of(
            "update_organization_name",
            ActivityResource.ORGANIZATION,
            ActivityAction.UPDATE,
            new ActivityVersion(
                    ActivityType.UPDATE_ORGANIZATION_NAME,
                    "updateOrganizationNameIntent",
                    "updateOrganizationNameResult"));

    private static final int MAX_NAME = 256;

    private final OrganizationRepository organizations;

    public UpdateOrganizationNameHandler(OrganizationRepository organizations) {
        this.organizations = organizations;
    }

    @Override
    public ActivitySpec spec() {
        return SPEC;
    }

    @Override
    public String parse(Params p) {
        String name = p.requiredString("organizationName");
        if (name.length() > MAX_NAME) {
            throw ApiException.badField(p.pathOf("organizationName"), "is longer than " + MAX_NAME + " characters");
        }
        return name;
    }

    @Override
    public Object execute(ActivityContext context, String name) {
        organizations.rename(context.tx(), context.organizationId(), name, context.now());
        return new Result(context.organizationId(), name);
    }

    /** {@code updateOrganizationNameResult}. */
    public record Result(String organizationId, String organizationName) {}
}
