package dev.keyhaven.server.store;

import dev.keyhaven.server.api.ApiException;
import dev.keyhaven.server.api.ErrorCode;
import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLTransientConnectionException;
import java.util.Set;

/**
 * Tells a database that cannot be reached from one that refused a statement, and what a request is answered then:
 * a 503 with {@code Retry-After}, not an internal error, since nothing is wrong with the request or the server.
 */
final class DatabaseOutage {
    /** How long clients are asked to wait: about what a restart or a fail-over of PostgreSQL takes to begin. */
    static final long RETRY_AFTER_SECONDS = 5;

    /**
     * PostgreSQL's SQLSTATEs of a server going away or not taking connections: shutdown (57P01), crash (57P02),
     * starting up or shutting down (57P03), out of connection slots (53300); and a server that refused a write as
     * read-only (25006): a standby, the primary having moved ({@link StandbyEviction} drops its connection). Class 08
     * is every connection error.
     */
    private static final Set<String> SERVER_GONE =
            Set.of("57P01", "57P02", "57P03", "53300", StandbyEviction.READ_ONLY);

    private DatabaseOutage() {}

    /**
     * Whether {@code e} (or what caused it) says the connection failed or could not be had: the pool's timeout
     * (whose cause is the last connection attempt's failure), a refused or broken connection, a server going away.
     */
    static boolean causedBy(SQLException e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof SQLTransientConnectionException || t instanceof SQLNonTransientConnectionException) {
                return true;
            }
            if (t instanceof SQLException s
                    && s.getSQLState() != null
                    && (s.getSQLState().startsWith("08") || SERVER_GONE.contains(s.getSQLState()))) {
                return true;
            }
        }
        return false;
    }

    /** The error a request gets while the database is unavailable. */
    static ApiException error() {
        return ApiException.retryLater(
                ErrorCode.DATABASE_UNAVAILABLE,
                "the database is unavailable; the request " + "may be sent again",
                RETRY_AFTER_SECONDS);
    }

    /** Whether {@code failure} is {@link #error()}'s kind. */
    static boolean is(Throwable failure) {
        return failure instanceof ApiException e && e.code() == ErrorCode.DATABASE_UNAVAILABLE;
    }
}
