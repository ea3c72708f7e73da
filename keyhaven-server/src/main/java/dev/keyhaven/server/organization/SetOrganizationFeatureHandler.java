package dev.keyhaven.server.organization;

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
 * {@code set_organization_feature}: turns a feature on, or replaces its value; the result lists every feature after
 * the change. Only the root quorum may do it ({@code PolicyAuthorizer}). A feature Keyhaven does not have is
 * refused ({@link FeatureName.Support#REFUSED}) rather than recorded: a stored origin list or webhook URL that nothing
 * reads would look like a protection or a delivery that does not exist.
 */
final class SetOrganizationFeatureHandler implements ActivityHandler<SetOrganizationFeatureHandler.Intent> {
    private static final ActivitySpec SPEC = ActivitySpec.of(
            "set_organization_feature",
            ActivityResource.ORGANIZATION,
            ActivityAction.UPDATE,
            new ActivityVersion(
                    ActivityType.SET_ORGANIZATION_FEATURE,
                    "setOrganizationFeatureIntent",
                    "setOrganizationFeatureResult"));

    /** Longer than any origin list or URL a feature holds. */
    private static final int MAX_VALUE = 4096;

    private final OrganizationRepository organizations;

    SetOrganizationFeatureHandler(OrganizationRepository organizations) {
        this.organizations = organizations;
    }

    record Intent(FeatureName name, String value) {}

    @Override
    public ActivitySpec spec() {
        return SPEC;
    }

    @Override
    public Intent parse(Params p) {
        FeatureName name = p.requiredEnum("name", FeatureName.class);
        if (name.support() == FeatureName.Support.REFUSED) {
            throw new ApiException(
                    ErrorCode.UNIMPLEMENTED,
                    name.wireName() + " is not a feature this server has; it is refused rather than recorded "
                            + "without effect",
                    p.pathOf("name"));
        }
        // The docs' CLI omits value and the SDK sends "": both mean no value.
        String value = p.optionalString("value").orElse("");
        if (value.length() > MAX_VALUE) {
            throw ApiException.badField(p.pathOf("value"), "is longer than " + MAX_VALUE + " characters");
        }
        return new Intent(name.canonical(), value);
    }

    @Override
    public Object execute(ActivityContext context, Intent intent) {
        organizations.setFeature(context.tx(), context.organizationId(), intent.name(), intent.value(), context.now());
        return new FeaturesResult(
                FeaturesResult.features(organizations.features(context.tx(), context.organizationId())));
    }
}
