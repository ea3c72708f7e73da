package dev.keyhaven.server.app;

import static org.assertj.core.api.Assertions.assertThat;

import dev.keyhaven.client.ApiKeyStamper;
import dev.keyhaven.client.KeyhavenClient;
import dev.keyhaven.server.app.ActivityLoad.Acknowledged;
import dev.keyhaven.server.testing.KeyhavenProcess;
import dev.keyhaven.server.testing.KeyhavenProcess.Result;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code backup} and {@code restore} of the embedded store, as operators run them: the real jar backs up a data
 * directory while a server on it takes writes, and a server on the restored directory, given the original master
 * key, has everything acknowledged before the backup began and signs with the wallets in it.
 */
class BackupRestoreIT {
    private static final String OWNER_FILE = "rw-------";
    private static final String OWNER_DIRECTORY = "rwx------";

    @TempDir
    Path directory;

    @Test
    void aBackupTakenUnderWriteLoadRestoresIntoADirectoryThatServesWithTheOriginalMasterKey() throws IOException {
        Path data = directory.resolve("data");
        Path backup = directory.resolve("keyhaven.backup");
        Path restored = directory.resolve("restored");
        String organizationId;
        BackupWallet wallet;
        List<Acknowledged> beforeBackup;
        long backupStarted;
        long backupEnded;
        ActivityLoad load;
        try (KeyhavenProcess server = KeyhavenProcess.serve(serveArguments(data), Map.of())) {
            organizationId = server.organizationId();
            KeyhavenClient client = new KeyhavenClient(server.baseUrl(), rootStamper(data), organizationId);
            wallet = BackupWallet.create(client, server.baseUrl());
            ActivityLoad running =
                    ActivityLoad.start("127.0.0.1", server.port(), rootStamper(data), organizationId, "backup", 4);
            load = running;
            server.explainingFailures(() -> running.awaitAcknowledged(40));
            beforeBackup = List.copyOf(load.acknowledged());
            backupStarted = System.nanoTime();
            Result backedUp = KeyhavenProcess.run(
                    List.of("backup", "--data-dir", data.toString(), "--out", backup.toString()), Map.of());
            backupEnded = System.nanoTime();
            load.stop();
            assertThat(backedUp.exitCode())
                    .as("backup exit status; stderr: %s", backedUp.stderr())
                    .isZero();
        }
        assertThat(load.unexpected()).as("answers other than 200 COMPLETED").isEmpty();
        assertThat(load.acknowledged().stream()
                        .filter(a -> a.answeredNanos() > backupStarted && a.answeredNanos() < backupEnded)
                        .count())
                .as("activities acknowledged while the backup ran: it ran under write load")
                .isPositive();
        assertThat(mode(backup)).as("mode of the backup file").isEqualTo(OWNER_FILE);
        assertThat(Files.list(directory).map(p -> p.getFileName().toString()))
                .as("no partial copy is left behind")
                .containsExactlyInAnyOrder("data", "keyhaven.backup");

        byte[] contents = Files.readAllBytes(backup);
        byte[] masterKeyHex =
                Files.readString(data.resolve("master.key")).strip().getBytes(StandardCharsets.US_ASCII);
        assertThat(BackupWallet.contains(contents, masterKeyHex))
                .as("the master key is in the backup")
                .isFalse();
        assertThat(BackupWallet.contains(
                        contents, HexFormat.of().parseHex(new String(masterKeyHex, StandardCharsets.US_ASCII))))
                .as("the master key's bytes are in the backup")
                .isFalse();
        for (byte[] secret : wallet.secrets()) {
            assertThat(BackupWallet.contains(contents, secret))
                    .as("a wallet secret in the clear in the backup (%d bytes)", secret.length)
                    .isFalse();
        }
        assertThat(BackupWallet.contains(contents, wallet.walletId().getBytes(StandardCharsets.US_ASCII)))
                .as("the wallet's id, so the search itself finds what is there")
                .isTrue();

        Result restoring = KeyhavenProcess.run(
                List.of("restore", "--in", backup.toString(), "--data-dir", restored.toString()), Map.of());
        assertThat(restoring.exitCode())
                .as("restore exit status; stderr: %s", restoring.stderr())
                .isZero();
        assertThat(mode(restored)).as("mode of the restored data directory").isEqualTo(OWNER_DIRECTORY);
        assertThat(mode(restored.resolve("keyhaven.db")))
                .as("mode of the restored database")
                .isEqualTo(OWNER_FILE);
        assertThat(restored.resolve("master.key"))
                .as("restore never makes a master key")
                .doesNotExist();

        Result withoutKey =
                KeyhavenProcess.run(List.of("serve", "--data-dir", restored.toString(), "--port", "0"), Map.of());
        assertThat(withoutKey.exitCode())
                .as("serve without the original master key")
                .isNotZero();
        assertThat(withoutKey.stderr()).contains("--master-key-file pointing at the original key");
        assertThat(restored.resolve("master.key"))
                .as("serve generated no new master key")
                .doesNotExist();

        try (KeyhavenProcess server = KeyhavenProcess.serve(
                serveArguments(
                        restored,
                        "--master-key-file",
                        data.resolve("master.key").toString()),
                Map.of())) {
            assertThat(server.organizationId()).isEqualTo(organizationId);
            KeyhavenClient client = new KeyhavenClient(server.baseUrl(), rootStamper(data), organizationId);
            Acknowledged latest = beforeBackup.stream()
                    .max(Comparator.comparingLong(Acknowledged::answeredNanos))
                    .orElseThrow();
            for (Acknowledged acknowledged : beforeBackup) {
                assertThat(client.getActivity(acknowledged.activityId())
                                .path("status")
                                .asString())
                        .as(
                                "activity %s, acknowledged before the backup began (the latest: %s)",
                                acknowledged.activityId(), latest.activityId())
                        .isEqualTo("ACTIVITY_STATUS_COMPLETED");
            }
            wallet.assertSignsWith(client);
        }
        // The restored store's activity log is the original's: every chain, signed head and row checks out.
        Result audited = KeyhavenProcess.run(
                List.of(
                        "audit",
                        "verify",
                        "--data-dir",
                        restored.toString(),
                        "--master-key-file",
                        data.resolve("master.key").toString()),
                Map.of());
        assertThat(audited.exitCode())
                .as("audit verify; stderr: %s", audited.stderr())
                .isZero();
        assertThat(audited.stdout().strip()).startsWith("audit log verified: ");
    }

    @Test
    void restoreRefusesADirectoryThatHoldsADatabaseAndFilesThatAreNoBackup() throws IOException {
        Path occupied = Files.createDirectories(directory.resolve("occupied"));
        Files.writeString(occupied.resolve("keyhaven.db"), "a database");
        Path garbage = Files.writeString(directory.resolve("garbage.backup"), "this is not an SQLite file at all");
        Path missing = directory.resolve("missing.backup");

        assertRefused(
                restore(garbage, occupied),
                1,
                "keyhaven restore: " + occupied + " already holds a database (keyhaven.db); restore into a new data "
                        + "directory");
        assertThat(Files.readString(occupied.resolve("keyhaven.db"))).isEqualTo("a database");

        Path fresh = directory.resolve("fresh");
        assertRefused(restore(missing, fresh), 1, "keyhaven restore: cannot read the backup " + missing);
        assertRefused(
                restore(garbage, fresh),
                1,
                "keyhaven restore: " + garbage + " is not a Keyhaven backup (File opened that is not a database file)");
        assertThat(fresh).as("a refused restore creates no data directory").doesNotExist();
    }

    @Test
    void restoreRefusesACorruptBackupAndBackupRefusesWhatItCannotCopy() throws IOException {
        Path data = directory.resolve("data");
        try (KeyhavenProcess _ = KeyhavenProcess.serve(serveArguments(data), Map.of())) {
            // Serving once creates the store; it is backed up after the server stopped.
        }
        Path backup = directory.resolve("keyhaven.backup");
        Result backedUp = KeyhavenProcess.run(
                List.of("backup", "--data-dir", data.toString(), "--out", backup.toString()), Map.of());
        assertThat(backedUp.exitCode()).as("stderr: %s", backedUp.stderr()).isZero();
        assertThat(backedUp.stdout().strip()).isEqualTo("backed up " + data + " to " + backup);

        assertRefused(
                KeyhavenProcess.run(
                        List.of("backup", "--data-dir", data.toString(), "--out", backup.toString()), Map.of()),
                1,
                "keyhaven backup: " + backup + " already exists; refusing to overwrite it");
        Path empty = Files.createDirectories(directory.resolve("empty"));
        assertRefused(
                KeyhavenProcess.run(
                        List.of(
                                "backup",
                                "--data-dir",
                                empty.toString(),
                                "--out",
                                directory.resolve("x").toString()),
                        Map.of()),
                1,
                "keyhaven backup: there is no embedded database in " + empty
                        + " (no keyhaven.db); for PostgreSQL use pg_dump (see docs/postgresql.md)");
        assertThat(empty)
                .as("backup creates nothing in a directory without a database")
                .isEmptyDirectory();
        assertRefused(
                KeyhavenProcess.run(
                        List.of(
                                "backup",
                                "--data-dir",
                                data.toString(),
                                "--db-url",
                                "jdbc:postgresql://127.0.0.1:5432/keyhaven",
                                "--out",
                                directory.resolve("pg.backup").toString()),
                        Map.of()),
                2,
                "keyhaven backup: --db-url names an external database; back PostgreSQL up with pg_dump -Fc (see "
                        + "docs/postgresql.md)");

        byte[] whole = Files.readAllBytes(backup);
        byte[] damaged = whole.clone();
        // Overwrite the second page onward (schema and rows) with noise: the header still says SQLite.
        Arrays.fill(damaged, 4096, whole.length, (byte) 0x5a);
        Path corrupt = Files.write(directory.resolve("corrupt.backup"), damaged);
        Path target = directory.resolve("from-corrupt");
        Result refused = restore(corrupt, target);
        assertThat(refused.exitCode()).as("stderr: %s", refused.stderr()).isEqualTo(1);
        assertThat(refused.stderr().strip())
                .as("one line naming the file")
                .doesNotContain("\n")
                .startsWith("keyhaven restore: " + corrupt + " is ");
        assertThat(target).as("a refused restore creates no data directory").doesNotExist();
    }

    private static Result restore(Path backup, Path dataDirectory) {
        return KeyhavenProcess.run(
                List.of("restore", "--in", backup.toString(), "--data-dir", dataDirectory.toString()), Map.of());
    }

    private static void assertRefused(Result result, int exitCode, String line) {
        assertThat(result.exitCode())
                .as("exit status; stderr: %s", result.stderr())
                .isEqualTo(exitCode);
        assertThat(result.stderr().strip()).as("stderr, one line").isEqualTo(line);
        assertThat(result.stdout()).as("stdout").isEmpty();
    }

    private static List<String> serveArguments(Path data, String... more) {
        List<String> arguments = new ArrayList<>(
                List.of("--data-dir", data.toString(), "--port", "0", "--max-users-per-organization", "1000000"));
        arguments.addAll(List.of(more));
        return arguments;
    }

    private static ApiKeyStamper rootStamper(Path data) {
        try {
            return ApiKeyStamper.fromPrivateKey(
                    ApiKeyStamper.Curve.P256, Files.readString(data.resolve("root-api-key.private")));
        } catch (IOException e) {
            throw new AssertionError("serve did not leave the root key in the data directory", e);
        }
    }

    private static String mode(Path path) throws IOException {
        return PosixFilePermissions.toString(Files.getPosixFilePermissions(path));
    }
}
