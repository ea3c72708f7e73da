package dev.keyhaven.server.app;

import dev.keyhaven.server.custody.KekLocator;
import java.nio.file.Path;
import java.util.Optional;
import picocli.CommandLine;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

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

    @Mixin
    KekOptions kek;

    @Spec(Spec.Target.MIXEE)
    CommandSpec command;

    /** The data directory, created (owner-only) when missing. */
    Path preparedDataDirectory() {
        return DataDirectory.prepare(dataDirectory);
    }

    /** The default configuration on this store: what the commands that open the store without serving use. */
    KeyhavenConfig config() {
        return KeyhavenConfig.defaults(preparedDataDirectory())
                .withDatabaseUrl(databaseUrl())
                .withMasterKeyFile(masterKeyFile())
                .withHsmKek(hsmKek());
    }

    /**
     * The KEK on a PKCS#11 token the options name; empty for a file KEK.
     *
     * @throws CommandLine.ParameterException a usage error naming the options, when they contradict each other
     */
    Optional<KekLocator.Pkcs11> hsmKek() {
        KekLocator locator;
        try {
            locator = kek.locator(Path.of("master.key"));
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(command.commandLine(), e.getMessage());
        }
        if (locator instanceof KekLocator.Pkcs11 pkcs11) {
            if (masterKeyFile != null) {
                throw new CommandLine.ParameterException(
                        command.commandLine(), "--master-key-file names a file KEK; it does not go with --kek pkcs11");
            }
            return Optional.of(pkcs11);
        }
        return Optional.empty();
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
