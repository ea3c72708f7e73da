package dev.keyhaven.server.organization;

import dev.keyhaven.server.activity.ActivityAction;
import dev.keyhaven.server.activity.ActivityContext;
import dev.keyhaven.server.activity.ActivityHandler;
import dev.keyhaven.server.activity.ActivityResource;
import dev.keyhaven.server.activity.ActivitySpec;
import dev.keyhaven.server.activity.ActivityType;
import dev.keyhaven.server.activity.ActivityVersion;
import dev.keyhaven.server.api.Params;

/**
 * {@code remove_organization_feature}: turns a feature off (the activities it gates are refused from then on with
 * {@code FEATURE_DISABLED}); removing one that is off changes nothing. The result lists every feature after the
 * change. Only the root quorum may do it ({@code PolicyAuthorizer}).
 */
final class RemoveOrganizationFeatureHandler implements ActivityHandler<FeatureName> {
    private static final ActivitySpec SPEC = ActivitySpec.of(
            "remove_organization_feature",
            ActivityResource.ORGANIZATION,
            ActivityAction.UPDATE,
            new ActivityVersion(
                    ActivityType.REMOVE_ORGANIZATION_FEATURE,
                    "removeOrganizationFeatureIntent",
                    "removeOrganizationFeatureResult"));

    private final OrganizationRepository organizations;

    RemoveOrganizationFeatureHandler(OrganizationRepository organizations) {
        this.organizations = organizations;
    }

    @Override
    public ActivitySpec spec() {
        return SPEC;
    }

    @Override
    public FeatureName parse(Params p) {
        return p.requiredEnum("name", FeatureName.class).canonical();
    }

    @Override
    public Object execute(ActivityContext context, FeatureName name) {
        organizations.removeFeature(context.tx(), context.organizationId(), name);
        return new FeaturesResult(
                FeaturesResult.features(organizations.features(context.tx(), context.organizationId())));
    }
}
