package dev.keyhaven.server.app;

import com.sun.management.UnixOperatingSystemMXBean;
import dev.keyhaven.server.http.ConnectionLimits;
import java.lang.management.ManagementFactory;
import java.lang.management.OperatingSystemMXBean;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How many client connections each listener may hold at once when the operator does not say
 * ({@code --max-connections 0}): what the process's file-descriptor limit leaves once everything else has its share.
 * A listener that reaches the limit stops accepting in Helidon (see {@code http.SupervisedListener}), so the cap is
 * what keeps client connections from taking the descriptors the database, webhooks and the listeners themselves need.
 */
final class ConnectionBudget {
    private static final Logger LOG = LoggerFactory.getLogger(ConnectionBudget.class);

    /** Descriptors kept beyond those open at start: mail, OIDC, OAuth 2.0 and Twilio calls, files, jars reopened. */
    static final int HEADROOM = 64;
    /**
     * Descriptors per pooled database connection: a SQLite connection opens the database, its WAL and its
     * shared-memory index (a PostgreSQL connection is one socket; counting three keeps one rule for both).
     */
    static final int PER_DATABASE_CONNECTION = 3;
    /** The most a derived cap allows per listener: an open connection holds about 16 KiB of buffers. */
    static final int MOST_PER_LISTENER = 4096;
    /** The cap when the limit cannot be read (not a Unix JVM). */
    static final int UNKNOWN_LIMIT_CAP = 1024;

    private ConnectionBudget() {}

    /** The file-descriptor limit of this process and how many are open now. */
    record Descriptors(long limit, long open) {
        static Optional<Descriptors> ofThisProcess() {
            OperatingSystemMXBean system = ManagementFactory.getOperatingSystemMXBean();
            return system instanceof UnixOperatingSystemMXBean unix
                    ? Optional.of(new Descriptors(unix.getMaxFileDescriptorCount(), unix.getOpenFileDescriptorCount()))
                    : Optional.empty();
        }
    }

    /** The configuration's limits with the cap resolved: the operator's, or one derived from the descriptors. */
    static ConnectionLimits resolve(KeyhavenConfig config) {
        int listeners = config.otp().authProxyPort().isPresent() ? 2 : 1;
        Optional<Descriptors> descriptors = Descriptors.ofThisProcess();
        long reserved = reserved(config);
        ConnectionLimits limits = config.connections();
        if (limits.maxConnections() > 0) {
            descriptors
                    .filter(d -> (long) limits.maxConnections() * listeners > d.limit() - d.open() - reserved)
                    .ifPresent(d -> LOG.atWarn()
                            .addKeyValue("maxConnections", limits.maxConnections())
                            .addKeyValue("listeners", listeners)
                            .addKeyValue("fileDescriptorLimit", d.limit())
                            .log("--max-connections is more than the file-descriptor limit leaves: past it a "
                                    + "listener stops accepting until descriptors are free again"));
            return limits;
        }
        int perListener =
                descriptors.map(d -> perListener(d, listeners, reserved)).orElse(UNKNOWN_LIMIT_CAP);
        LOG.atInfo()
                .addKeyValue("maxConnections", perListener)
                .addKeyValue("listeners", listeners)
                .addKeyValue(
                        "fileDescriptorLimit",
                        descriptors.map(Descriptors::limit).orElse(-1L))
                .log("connections per listener, derived from the file-descriptor limit");
        return limits.withMaxConnections(perListener);
    }

    /**
     * What the limit leaves after the descriptors open now and {@code reserved}, shared between the listeners, between
     * 1 and {@link #MOST_PER_LISTENER}.
     */
    static int perListener(Descriptors descriptors, int listeners, long reserved) {
        long available = descriptors.limit() - descriptors.open() - reserved;
        return Math.clamp(available / listeners, 1, MOST_PER_LISTENER);
    }

    /** Descriptors that the database pool, outbound webhooks and the headroom may still open. */
    static long reserved(KeyhavenConfig config) {
        int pool = config.databasePoolSize() > 0
                ? config.databasePoolSize()
                : config.effectiveDatabaseUrl().startsWith("jdbc:postgresql:") ? 16 : 4;
        return HEADROOM
                + (long) PER_DATABASE_CONNECTION * pool
                + config.webhooks().maxConcurrent();
    }
}
