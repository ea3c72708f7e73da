package dev.keyhaven.server.store;

import java.io.IOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Properties;
import java.util.function.UnaryOperator;
import org.sqlite.SQLiteConnection;
import org.sqlite.SQLiteException;
import org.sqlite.core.DB;

/**
 * Backs up and restores the embedded store with SQLite's online backup API, the only copy of a live SQLite database
 * that is consistent: copying the file (and its WAL) while a server writes can tear a transaction. The backup copies
 * every page in one step, inside one read transaction, so it is the database as of one commit; in WAL mode that read
 * neither blocks the server's writers nor is restarted by them.
 *
 * <p>The backup is the database file and nothing else: the master key (KEK) lives outside the database, and every
 * mnemonic and private key inside it is sealed under that KEK, so a backup alone opens no key.
 */
public final class EmbeddedBackup {
    /** Copy every page in one step: a snapshot of one commit, never restarted by concurrent writers. */
    private static final int ALL_PAGES = -1;
    /** Milliseconds between tries while the database is locked (a checkpoint or a migration holding it). */
    private static final int BUSY_SLEEP_MILLIS = 100;
    /** Tries before giving up on a locked database: 10 s in all, the server's own busy timeout. */
    private static final int BUSY_TRIES = 100;
    /** A table every Keyhaven database has: a backup without it is some other SQLite file. */
    private static final String KEYHAVEN_TABLE = "flyway_schema_history";

    private EmbeddedBackup() {}

    /** Why a backup or restore did not happen, in one line for the operator. */
    public static final class BackupException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        BackupException(String message) {
            super(message);
        }

        BackupException(String message, Throwable cause) {
            super(message, cause);
        }
    }

    /**
     * Writes a consistent snapshot of the embedded database in {@code dataDirectory} to {@code out} (0600), while a
     * server may be writing to it. The snapshot is written next to {@code out} and moved into place only when
     * complete, so {@code out} is never a partial backup.
     *
     * @throws BackupException when there is no database, {@code out} exists, or the copy fails
     */
    public static void backup(Path dataDirectory, Path out) {
        Path database = databaseFile(dataDirectory);
        if (!Files.isRegularFile(database)) {
            throw new BackupException("there is no embedded database in " + dataDirectory + " (no "
                    + database.getFileName() + "); for PostgreSQL use pg_dump (see docs/postgresql.md)");
        }
        if (Files.exists(out)) {
            throw new BackupException(out + " already exists; refusing to overwrite it");
        }
        Path partial = ownerOnlyFile(out.toAbsolutePath().resolveSibling(out.getFileName() + ".partial"));
        try {
            try (Connection source = open(database, true)) {
                copy(
                        source,
                        db -> db.backup("main", partial.toString(), null, BUSY_SLEEP_MILLIS, BUSY_TRIES, ALL_PAGES));
            }
            moveIntoPlace(partial, out);
        } catch (SQLException e) {
            throw new BackupException("cannot back up " + database + ": " + e.getMessage(), e);
        } finally {
            deleteQuietly(partial);
        }
    }

    /**
     * Makes the embedded database of {@code dataDirectory} (which must hold none yet) from a backup, after checking
     * that the backup is an intact Keyhaven database. {@code prepareDirectory} creates the directory only once both
     * checks passed, so a refused restore leaves nothing behind; the database file is 0600.
     *
     * @throws BackupException when the directory holds a database, or the backup is unreadable, corrupt or foreign
     */
    public static void restore(Path backup, Path dataDirectory, UnaryOperator<Path> prepareDirectory) {
        Path database = databaseFile(dataDirectory.toAbsolutePath());
        for (String suffix : new String[] {"", "-wal", "-shm", "-journal"}) {
            if (Files.exists(Path.of(database + suffix))) {
                throw new BackupException(dataDirectory + " already holds a database (" + database.getFileName()
                        + suffix + "); restore into a new data directory");
            }
        }
        verify(backup);
        database = databaseFile(prepareDirectory.apply(dataDirectory));
        Path partial = ownerOnlyFile(Path.of(database + ".partial"));
        try {
            try (Connection target = open(partial, false)) {
                copy(
                        target,
                        db -> db.restore("main", backup.toString(), null, BUSY_SLEEP_MILLIS, BUSY_TRIES, ALL_PAGES));
            }
            moveIntoPlace(partial, database);
        } catch (SQLException e) {
            throw new BackupException("cannot restore from " + backup + ": " + e.getMessage(), e);
        } finally {
            deleteQuietly(partial);
        }
    }

    /** Fails unless {@code backup} is a readable SQLite file that passes its integrity check and is Keyhaven's. */
    private static void verify(Path backup) {
        if (!Files.isRegularFile(backup) || !Files.isReadable(backup)) {
            throw new BackupException("cannot read the backup " + backup);
        }
        try (Connection connection = open(backup, true);
                Statement statement = connection.createStatement()) {
            try (ResultSet check = statement.executeQuery("PRAGMA integrity_check")) {
                String verdict = check.next() ? check.getString(1) : "no answer";
                if (!"ok".equals(verdict)) {
                    throw new BackupException(backup + " is corrupt (integrity check: " + firstLine(verdict) + ")");
                }
            }
            try (ResultSet table = statement.executeQuery(
                    "SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = '" + KEYHAVEN_TABLE + "'")) {
                if (!table.next()) {
                    throw new BackupException(
                            backup + " is not a Keyhaven backup (an SQLite file without " + "Keyhaven's tables)");
                }
            }
        } catch (SQLException e) {
            throw new BackupException(backup + " is not a Keyhaven backup (" + reason(e) + ")", e);
        }
    }

    /** The database file of the embedded store in a data directory. */
    private static Path databaseFile(Path dataDirectory) {
        return Path.of(Database.embeddedPath(Database.embeddedUrl(dataDirectory)));
    }

    private static Connection open(Path file, boolean readOnly) throws SQLException {
        Properties properties = new Properties();
        properties.setProperty("busy_timeout", Integer.toString(BUSY_SLEEP_MILLIS * BUSY_TRIES));
        if (readOnly) {
            properties.setProperty("open_mode", "1"); // SQLITE_OPEN_READONLY: never create or change the source
        }
        return DriverManager.getConnection("jdbc:sqlite:" + file.toAbsolutePath(), properties);
    }

    private interface Copy {
        int run(DB db) throws SQLException;
    }

    private static void copy(Connection connection, Copy copy) throws SQLException {
        DB db = connection.unwrap(SQLiteConnection.class).getDatabase();
        int result = copy.run(db);
        if (result != 0) {
            throw new SQLException("SQLite answered " + result);
        }
    }

    /**
     * Creates {@code file} empty and readable by its owner only, so the copy never exists with wider permissions
     * (SQLite keeps an existing file's mode, and gives its journal the same one).
     */
    private static Path ownerOnlyFile(Path file) {
        try {
            Files.deleteIfExists(file);
            return Files.createFile(
                    file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        } catch (IOException e) {
            throw new BackupException("cannot create " + file + ": " + e.getMessage(), e);
        }
    }

    private static void moveIntoPlace(Path partial, Path target) {
        try {
            try {
                Files.move(partial, target, StandardCopyOption.ATOMIC_MOVE);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(partial, target);
            }
        } catch (IOException e) {
            throw new BackupException("cannot move the copy to " + target + ": " + e.getMessage(), e);
        }
    }

    private static void deleteQuietly(Path file) {
        try {
            Files.deleteIfExists(file);
            Files.deleteIfExists(Path.of(file + "-journal"));
        } catch (IOException ignored) {
            // Only a leftover partial copy; the error that matters was already raised.
        }
    }

    /** SQLite's own words for a failure, without the driver's decoration ({@code [SQLITE_NOTADB] ...}). */
    private static String reason(SQLException e) {
        return e instanceof SQLiteException sqlite ? sqlite.getResultCode().message : firstLine(e.getMessage());
    }

    private static String firstLine(String text) {
        String line = text == null ? "" : text.strip();
        int end = line.indexOf('\n');
        return end < 0 ? line : line.substring(0, end);
    }
}
