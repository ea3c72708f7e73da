package dev.keyhaven.server.store;

import com.zaxxer.hikari.SQLExceptionOverride;
import java.sql.SQLException;

/**
 * Tells the pool to drop a connection whose server refused a write as read-only ({@code 25006}): that server is a
 * standby now, so the connection must never be used again. Hikari evicts connections on connection errors (class
 * {@code 08}, a server shutting down) but keeps one that answered 25006, which would then fail every write handed to
 * it. With {@code targetServerType=primary} pgjdbc picks the writable host when it connects, so this only matters
 * where the URL cannot say so (a single host name or a proxy that moves to a standby): the request is answered 503
 * with {@code Retry-After} ({@link DatabaseOutage}), and the next connection goes to whichever server is primary.
 */
final class StandbyEviction implements SQLExceptionOverride {
    /** PostgreSQL's {@code read_only_sql_transaction}; Keyhaven never marks a transaction read-only itself. */
    static final String READ_ONLY = "25006";

    @java.lang.Override
    public SQLExceptionOverride.Override adjudicate(SQLException e) {
        return READ_ONLY.equals(e.getSQLState())
                ? SQLExceptionOverride.Override.MUST_EVICT
                : SQLExceptionOverride.Override.CONTINUE_EVICT;
    }
}
