package dev.keyhaven.server.store;

import java.net.ConnectException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import org.postgresql.Driver;
import org.postgresql.util.PSQLException;
import org.postgresql.util.ServerErrorMessage;

/**
 * The one connection made before the pool and the migrations: a database that cannot be reached is reported here in
 * one line, instead of as the pool's stack trace. Whatever the reason, the message names the server and never
 * repeats the URL (it may hold a password).
 */
final class FirstConnection {
    private FirstConnection() {}

    /** Connects once with {@code properties} (the pool's own timeouts) and closes the connection again. */
    static void require(String jdbcUrl, Dialect dialect, Properties properties) {
        try (Connection connection = DriverManager.getConnection(jdbcUrl, properties)) {
            connection.isValid(1);
        } catch (SQLException e) {
            throw new DatabaseOpenException(describe(e, jdbcUrl, dialect), e);
        }
    }

    static String describe(SQLException e, String jdbcUrl, Dialect dialect) {
        if (dialect == Dialect.SQLITE) {
            return "SQLite at " + Database.embeddedPath(jdbcUrl) + ": " + firstLine(e.getMessage());
        }
        Properties url = Driver.parseURL(jdbcUrl, null);
        if (url == null) {
            return "the PostgreSQL URL does not parse (jdbc:postgresql://HOST:PORT/NAME?user=...)";
        }
        String server = "PostgreSQL at " + servers(url);
        if (causedBy(e, ConnectException.class)) {
            return server + " refused the connection";
        }
        if (causedBy(e, SocketTimeoutException.class)) {
            return server + " did not answer in time";
        }
        if (causedBy(e, UnknownHostException.class)) {
            return server + ": the host is unknown";
        }
        String state = e.getSQLState() == null ? "" : e.getSQLState();
        if (state.equals("3D000")) {
            return server + " has no database \"" + url.getProperty("PGDBNAME") + "\"; create it with: "
                    + createdb(url);
        }
        if (state.startsWith("28")) {
            return server + " refused the login: " + serverMessage(e);
        }
        return server + ": " + serverMessage(e);
    }

    /**
     * The {@code createdb} command that makes the missing database on the (first) server, as the URL's user: the
     * operator's next step, spelled out. Never the password, which the URL may hold.
     */
    private static String createdb(Properties url) {
        StringBuilder command = new StringBuilder("createdb");
        command.append(" -h ").append(url.getProperty("PGHOST", "localhost").split(",")[0]);
        command.append(" -p ").append(url.getProperty("PGPORT", "5432").split(",")[0]);
        String user = url.getProperty("user");
        if (user != null && !user.isEmpty()) {
            command.append(" -U ").append(user);
        }
        return command.append(' ').append(url.getProperty("PGDBNAME")).toString();
    }

    /** {@code host:port}, or each of them for a URL that names several servers. */
    private static String servers(Properties url) {
        String[] hosts = url.getProperty("PGHOST", "").split(",");
        String[] ports = url.getProperty("PGPORT", "").split(",");
        List<String> servers = new ArrayList<>();
        for (int i = 0; i < hosts.length; i++) {
            servers.add(hosts[i] + (i < ports.length ? ":" + ports[i] : ""));
        }
        return String.join(", ", servers);
    }

    private static boolean causedBy(Throwable e, Class<? extends Throwable> kind) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (kind.isInstance(t)) {
                return true;
            }
        }
        return false;
    }

    /** The server's own words ("password authentication failed for user "x""), without the driver's decoration. */
    private static String serverMessage(SQLException e) {
        if (e instanceof PSQLException p && p.getServerErrorMessage() != null) {
            ServerErrorMessage message = p.getServerErrorMessage();
            if (message.getMessage() != null) {
                return firstLine(message.getMessage());
            }
        }
        return firstLine(e.getMessage());
    }

    private static String firstLine(String message) {
        if (message == null) {
            return "no reason given";
        }
        int end = message.indexOf('\n');
        return (end < 0 ? message : message.substring(0, end)).strip();
    }
}
