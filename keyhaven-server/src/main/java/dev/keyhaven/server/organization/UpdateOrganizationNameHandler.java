package dev.keyhaven.server.organization;

import dev.keyhaven.server.activity.ActivityAction;
import dev.keyhaven.server.activity.ActivityContext;
import dev.keyhaven.server.activity.ActivityHandler;
import dev.keyhaven.server.activity.ActivityResource;
import dev.keyhaven.server.activity.ActivityType;
import dev.keyhaven.server.activity.ActivityVersion;
import dev.keyhaven.server.api.ApiException;
import dev.keyhaven.server.api.Params;
import java.util.List;

/** {@code update_organization_name}: renames the organization. Only the root quorum may do it. */
public final class UpdateOrganizationNameHandler implements ActivityHandler<String> {
    private static final int MAX_NAME = 256;

    private final OrganizationRepository organizations;

    public UpdateOrganizationNameHandler(OrganizationRepository organizations) {
        this.organizations = organizations;
    }

    @Override
    public String operation() {
        return "update_organization_name";
    }

    @Override
    public List<ActivityVersion> versions() {
        return List.of(new ActivityVersion(ActivityType.UPDATE_ORGANIZATION_NAME, "updateOrganizationNameIntent",
                "updateOrganizationNameResult"));
    }

    @Override
    public ActivityResource resource() {
        return ActivityResource.ORGANIZATION;
    }

    @Override
    public ActivityAction action() {
        return ActivityAction.UPDATE;
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
    public record Result(String organizationId, String organizationName) {
    }
}
