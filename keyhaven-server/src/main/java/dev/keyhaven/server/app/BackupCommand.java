package dev.keyhaven.server.app;

import dev.keyhaven.server.store.EmbeddedBackup;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code backup}: a consistent snapshot of the embedded store, taken while servers keep serving. It holds the
 * database only: never the master key, and no key in the clear (they are sealed under the master key), so the
 * operator keeps the master key elsewhere and brings it to {@code serve} on the restored copy.
 */
@Command(
        name = "backup",
        mixinStandardHelpOptions = true,
        description = "Write a consistent snapshot of the embedded database (SQLite) of a data directory, served or "
                + "not, to a new file (0600). The master key is not in it. For PostgreSQL use pg_dump -Fc "
                + "(docs/postgresql.md).")
final class BackupCommand implements Callable<Integer> {

    @Option(
            names = "--data-dir",
            required = true,
            defaultValue = "${env:KEYHAVEN_DATA_DIR}",
            description = "Data directory whose embedded database to back up (env: KEYHAVEN_DATA_DIR).")
    Path dataDirectory;

    @Option(
            names = "--db-url",
            defaultValue = "${env:KEYHAVEN_DB_URL}",
            description = "Must be unset: a PostgreSQL database is backed up with pg_dump (env: KEYHAVEN_DB_URL).")
    String databaseUrl;

    @Option(names = "--out", required = true, description = "The backup file to create; it must not exist.")
    Path out;

    @Override
    public Integer call() {
        if (databaseUrl != null && !databaseUrl.isBlank()) {
            System.err.println("keyhaven backup: --db-url names an external database; back PostgreSQL up with "
                    + "pg_dump -Fc (see docs/postgresql.md)");
            return 2;
        }
        try {
            EmbeddedBackup.backup(dataDirectory.toAbsolutePath(), out);
        } catch (EmbeddedBackup.BackupException e) {
            System.err.println("keyhaven backup: " + e.getMessage());
            return 1;
        }
        System.out.println("backed up " + dataDirectory + " to " + out);
        return 0;
    }
}
