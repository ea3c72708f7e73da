package dev.keyhaven.server.app;

import java.nio.file.Path;
import java.util.Optional;
import picocli.CommandLine.Option;

/** Where Keyhaven keeps its data: the options of every command that opens the store. */
final class StoreOptions {

    @Option(names = "--data-dir", required = true, defaultValue = "${env:KEYHAVEN_DATA_DIR}",
            description = "Data directory: the embedded database and the root key files (env: KEYHAVEN_DATA_DIR).")
    Path dataDirectory;

    @Option(names = "--db-url", defaultValue = "${env:KEYHAVEN_DB_URL}",
            description = "JDBC URL of a PostgreSQL database (jdbc:postgresql://HOST:PORT/NAME?user=...); default: "
                    + "SQLite in the data directory (env: KEYHAVEN_DB_URL).")
    String databaseUrl;

    /** The data directory, created (owner-only) when missing. */
    Path preparedDataDirectory() {
        return DataDirectory.prepare(dataDirectory);
    }

    /** The database URL; empty means the embedded store. */
    Optional<String> databaseUrl() {
        return Optional.ofNullable(databaseUrl).filter(s -> !s.isBlank());
    }
}
