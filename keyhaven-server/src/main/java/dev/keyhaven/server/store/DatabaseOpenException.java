package dev.keyhaven.server.store;

/**
 * The database could not be opened at start: refused, unknown, missing, or the login was refused. The message is
 * one line an operator can act on ("cannot open the database: PostgreSQL at 127.0.0.1:5432 has no database
 * "keyhaven""); it never carries the URL, which may hold a password.
 */
public final class DatabaseOpenException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    DatabaseOpenException(String reason, Throwable cause) {
        super("cannot open the database: " + reason, cause);
    }
}
