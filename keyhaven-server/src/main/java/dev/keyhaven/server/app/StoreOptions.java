package dev.keyhaven.server.app;

import java.nio.file.Path;
import java.util.Optional;
import picocli.CommandLine.Option;

/** Where Keyhaven keeps its data: the options of every command that opens the store. */
final class StoreOptions {

    @Option(
            names = "--data-dir",
            required = true,
            defaultValue = "${env:KEYHAVEN_DATA_DIR}",
            description = "Data directory: the embedded database and the root key files (env: KEYHAVEN_DATA_DIR).")
    Path dataDirectory;

    @Option(
            names = "--db-url",
            defaultValue = "${env:KEYHAVEN_DB_URL}",
            description = "JDBC URL of a PostgreSQL database (jdbc:postgresql://HOST:PORT/NAME?user=...); default: "
                    + "SQLite in the data directory (env: KEYHAVEN_DB_URL).")
    String databaseUrl;

    @Option(
            names = "--master-key-file",
            defaultValue = "${env:KEYHAVEN_MASTER_KEY_FILE}",
            description = "File holding the key-encryption key that seals every mnemonic and private key (32 bytes, "
                    + "hex). Default: master.key in the data directory, generated on first start; a named file is "
                    + "never generated. A key that does not match the database refuses to start "
                    + "(env: KEYHAVEN_MASTER_KEY_FILE).")
    Path masterKeyFile;

    /** The data directory, created (owner-only) when missing. */
    Path preparedDataDirectory() {
        return DataDirectory.prepare(dataDirectory);
    }

    /** The default configuration on this store: what the commands that open the store without serving use. */
    KeyhavenConfig config() {
        return KeyhavenConfig.defaults(preparedDataDirectory())
                .withDatabaseUrl(databaseUrl())
                .withMasterKeyFile(masterKeyFile());
    }

    /** The KEK file the operator named; empty means the default in the data directory. */
    Optional<Path> masterKeyFile() {
        return Optional.ofNullable(masterKeyFile);
    }

    /** The database URL; empty means the embedded store. */
    Optional<String> databaseUrl() {
        return Optional.ofNullable(databaseUrl).filter(s -> !s.isBlank());
    }
}
