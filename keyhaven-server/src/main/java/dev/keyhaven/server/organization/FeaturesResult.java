package dev.keyhaven.server.organization;

import java.util.List;

/**
 * {@code setOrganizationFeatureResult} and {@code removeOrganizationFeatureResult}: every enabled feature after the
 * change, as {@code v1Feature}s.
 */
record FeaturesResult(List<Wire> features) {
    /** {@code v1Feature}. */
    record Wire(String name, String value) {}

    static List<Wire> features(List<OrganizationRepository.FeatureSetting> features) {
        return features.stream()
                .map(f -> new Wire(f.name().wireName(), f.value()))
                .toList();
    }
}
