package dev.keyhaven.server.app;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The launcher reads every form {@code java.specification.version} has taken, and fails closed on the rest. */
class LauncherTest {
    @Test
    void readsTheFeatureReleaseOfOldAndNewSpecificationVersions() {
        assertThat(Launcher.featureVersion("1.8")).isEqualTo(8);
        assertThat(Launcher.featureVersion("17")).isEqualTo(17);
        assertThat(Launcher.featureVersion("25")).isEqualTo(25);
        assertThat(Launcher.featureVersion("26.1")).isEqualTo(26);
    }

    @Test
    void anUnreadableVersionCountsAsTooOld() {
        assertThat(Launcher.featureVersion(null)).isZero();
        assertThat(Launcher.featureVersion("")).isZero();
        assertThat(Launcher.featureVersion("twenty-five")).isZero();
    }

    @Test
    void thisJavaIsNewEnough() {
        assertThat(Launcher.featureVersion(System.getProperty("java.specification.version")))
                .isGreaterThanOrEqualTo(Launcher.REQUIRED_JAVA);
    }
}
