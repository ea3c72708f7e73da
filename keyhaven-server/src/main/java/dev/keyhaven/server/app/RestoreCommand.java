package dev.keyhaven.server.app;

import dev.keyhaven.server.store.EmbeddedBackup;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code restore}: a new data directory from a {@code backup} file. The backup has no master key, on purpose, so
 * the restored directory has none either: {@code serve} on it is given the original key with
 * {@code --master-key-file} (or the operator copies it in as {@code master.key}), and refuses to start without it
 * rather than generate a key that opens nothing.
 */
@Command(
        name = "restore",
        mixinStandardHelpOptions = true,
        description = "Make a new data directory (0700, files 0600) from a backup file. Serve it with the original "
                + "master key: --master-key-file, or copy that key in as master.key.")
final class RestoreCommand implements Callable<Integer> {

    @Option(names = "--in", required = true, description = "The backup file, written by 'keyhaven backup'.")
    Path in;

    @Option(
            names = "--data-dir",
            required = true,
            defaultValue = "${env:KEYHAVEN_DATA_DIR}",
            description = "The data directory to create; it must not hold a database yet (env: KEYHAVEN_DATA_DIR).")
    Path dataDirectory;

    @Override
    public Integer call() {
        if (Files.exists(dataDirectory) && !Files.isDirectory(dataDirectory)) {
            System.err.println("keyhaven restore: " + dataDirectory + " is not a directory");
            return 1;
        }
        try {
            EmbeddedBackup.restore(in, dataDirectory, DataDirectory::prepare);
        } catch (EmbeddedBackup.BackupException e) {
            System.err.println("keyhaven restore: " + e.getMessage());
            return 1;
        }
        System.out.println("restored " + in + " into " + dataDirectory
                + "; serve it with --master-key-file naming the original master key");
        return 0;
    }
}
