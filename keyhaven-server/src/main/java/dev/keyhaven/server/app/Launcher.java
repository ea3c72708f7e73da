package dev.keyhaven.server.app;

import java.io.File;
import java.net.URISyntaxException;
import java.security.CodeSource;

/**
 * The jar's {@code Main-Class}. It alone is compiled for Java 8 (the pom's {@code java8-launcher} execution), so
 * that a {@code java} older than 25 can load it and say in one line what to do, where it would otherwise stop with
 * an {@code UnsupportedClassVersionError} about "class file version 69.0". On Java 25 or newer it calls
 * {@link Main#main} directly: no reflection, no second class loader, nothing to pay at start.
 *
 * <p>It must stay Java 8 source: no {@code var}, no {@code Runtime.version()} (Java 9), and it may refer to
 * {@link Main} only in the call, which the JVM resolves when it runs it, after the check.
 */
public final class Launcher {
    /** The oldest Java that runs Keyhaven (the build's {@code maven.compiler.release}). */
    static final int REQUIRED_JAVA = 25;

    /** The exit status when the Java is too old; the same as any other failure to start (docs/operating.md). */
    static final int TOO_OLD_EXIT_STATUS = 1;

    private Launcher() {}

    public static void main(String[] args) {
        int running = featureVersion(System.getProperty("java.specification.version"));
        if (running < REQUIRED_JAVA) {
            System.err.println(tooOld(
                    System.getProperty("java.specification.version"), System.getProperty("java.home"), jarPath()));
            System.exit(TOO_OLD_EXIT_STATUS);
        }
        Main.main(args);
    }

    /**
     * The feature release of a {@code java.specification.version}: "1.8" is 8 (Java 8 still spoke of 1.x), "17" is
     * 17; what does not parse counts as 0, too old.
     */
    static int featureVersion(String specificationVersion) {
        if (specificationVersion == null) {
            return 0;
        }
        String feature =
                specificationVersion.startsWith("1.") ? specificationVersion.substring(2) : specificationVersion;
        int dot = feature.indexOf('.');
        try {
            return Integer.parseInt(dot < 0 ? feature : feature.substring(0, dot));
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    /** The one line: which Java this is, where it lives, and the command that would work. */
    static String tooOld(String specificationVersion, String javaHome, String jar) {
        return "keyhaven: needs Java " + REQUIRED_JAVA + " or newer; this is Java " + specificationVersion + " at "
                + javaHome + " (set JAVA_HOME to a JDK " + REQUIRED_JAVA + " or newer and run \"$JAVA_HOME/bin/java "
                + "-jar " + jar + "\")";
    }

    /** Where this jar is, as the operator would type it again; "keyhaven.jar" when the JVM does not say. */
    private static String jarPath() {
        CodeSource source = Launcher.class.getProtectionDomain().getCodeSource();
        if (source == null || source.getLocation() == null) {
            return "keyhaven.jar";
        }
        try {
            return new File(source.getLocation().toURI()).getPath();
        } catch (URISyntaxException | IllegalArgumentException e) {
            return "keyhaven.jar";
        }
    }
}
