package dev.keyhaven.server.organization;

import dev.keyhaven.server.api.ApiException;
import dev.keyhaven.server.api.ErrorCode;
import dev.keyhaven.server.tx.Tx;
import java.time.Instant;
import java.util.EnumSet;
import java.util.Set;

/**
 * The features an organization has turned on, as the features they gate read them. Every organization starts with
 * {@link #DEFAULTS} (a {@code create_sub_organization} may turn some off); {@code remove_organization_feature}
 * turns one off, and the activities it gates are then refused with {@link ErrorCode#FEATURE_DISABLED}.
 */
public final class OrganizationFeatures {
    /**
     * What a new organization has: everything Keyhaven gates, so that what worked before features existed keeps
     * working. (Turnkey starts top-level organizations without the email and SMS features; Keyhaven's operator owns
     * its root organization and can remove them.)
     */
    public static final Set<FeatureName> DEFAULTS = EnumSet.of(
            FeatureName.EMAIL_RECOVERY, FeatureName.EMAIL_AUTH, FeatureName.OTP_EMAIL_AUTH, FeatureName.SMS_AUTH);

    private final OrganizationRepository organizations;

    public OrganizationFeatures(OrganizationRepository organizations) {
        this.organizations = organizations;
    }

    /** Refuses, with a message naming the feature, unless the organization has {@code feature} turned on. */
    public void require(Tx tx, String organizationId, FeatureName feature) {
        FeatureName name = feature.canonical();
        boolean enabled = organizations.features(tx, organizationId).stream().anyMatch(f -> f.name() == name);
        if (!enabled) {
            throw new ApiException(
                    ErrorCode.FEATURE_DISABLED,
                    "feature " + name.wireName() + " is disabled for this organization "
                            + "(set_organization_feature turns it on)");
        }
    }

    /** Turns on the defaults for a new organization, less those it asked to start without. */
    static void startWith(
            OrganizationRepository organizations, Tx tx, String organizationId, Set<FeatureName> off, Instant now) {
        for (FeatureName feature : DEFAULTS) {
            if (!off.contains(feature)) {
                organizations.setFeature(tx, organizationId, feature, "", now);
            }
        }
    }
}
