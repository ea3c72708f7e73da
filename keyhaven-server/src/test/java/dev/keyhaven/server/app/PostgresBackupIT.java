package dev.keyhaven.server.app;

import static org.assertj.core.api.Assertions.assertThat;

import dev.keyhaven.client.Activity;
import dev.keyhaven.client.ApiKeyStamper;
import dev.keyhaven.client.KeyhavenClient;
import dev.keyhaven.client.Requests.UserParams;
import dev.keyhaven.server.testing.KeyhavenProcess;
import dev.keyhaven.server.testing.StoreKind;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * PostgreSQL is backed up with its own tools, as docs/postgresql.md tells operators: {@code pg_dump -Fc} of the
 * database while Keyhaven serves it, {@code pg_restore} into a new database, and a server on that database with the
 * original master key has the activities and signs with the wallet. Only databases this test creates are touched,
 * and both are dropped.
 */
class PostgresBackupIT {
    private static final Path BIN =
            Path.of(System.getenv().getOrDefault("KEYHAVEN_TEST_PG_BIN", "/usr/lib/postgresql/15/bin"));

    @TempDir
    Path directory;

    private final List<String> databases = new ArrayList<>();

    @AfterEach
    void dropDatabases() {
        databases.forEach(StoreKind.POSTGRES::drop);
    }

    @Test
    void aDatabaseDumpedWhileServingRestoresIntoOneThatServesWithTheOriginalMasterKey()
            throws IOException, InterruptedException {
        String original = fresh();
        Path data = directory.resolve("data");
        Path dump = directory.resolve("keyhaven.dump");
        String organizationId;
        BackupWallet wallet;
        String activityId;
        try (KeyhavenProcess server = KeyhavenProcess.serve(arguments(data, original), Map.of())) {
            organizationId = server.organizationId();
            KeyhavenClient client = new KeyhavenClient(server.baseUrl(), rootStamper(data), organizationId);
            wallet = BackupWallet.create(client, server.baseUrl());
            Activity users = client.createUsers(List.of(
                    new UserParams("dumped", "dumped@example.com", null, List.of(), List.of(), List.of(), List.of())));
            assertThat(users.status()).isEqualTo("ACTIVITY_STATUS_COMPLETED");
            activityId = users.id();
            run(List.of(
                    BIN.resolve("pg_dump").toString(),
                    "--format=custom",
                    "--no-owner",
                    "--file",
                    dump.toString(),
                    libpq(original)));
        }
        byte[] contents = Files.readAllBytes(dump);
        for (byte[] secret : wallet.secrets()) {
            assertThat(BackupWallet.contains(contents, secret))
                    .as("a wallet secret in the clear in the dump (%d bytes)", secret.length)
                    .isFalse();
        }
        // The custom format compresses table data; a plain dump shows the search would find a stored value.
        Path plain = directory.resolve("keyhaven.sql");
        run(List.of(BIN.resolve("pg_restore").toString(), "--file", plain.toString(), dump.toString()));
        String script = Files.readString(plain, StandardCharsets.UTF_8);
        assertThat(script).as("the dump holds the wallet").contains(wallet.walletId());
        for (byte[] secret : wallet.secrets()) {
            assertThat(BackupWallet.contains(script.getBytes(StandardCharsets.UTF_8), secret))
                    .as("a wallet secret in the clear in the dump's SQL (%d bytes)", secret.length)
                    .isFalse();
        }

        String restored = fresh();
        run(List.of(
                BIN.resolve("pg_restore").toString(),
                "--exit-on-error",
                "--no-owner",
                "--dbname",
                libpq(restored),
                dump.toString()));

        Path otherData = directory.resolve("restored-data");
        List<String> serveRestored = arguments(otherData, restored);
        serveRestored.addAll(
                List.of("--master-key-file", data.resolve("master.key").toString()));
        try (KeyhavenProcess server = KeyhavenProcess.serve(serveRestored, Map.of())) {
            assertThat(server.organizationId()).isEqualTo(organizationId);
            KeyhavenClient client = new KeyhavenClient(server.baseUrl(), rootStamper(data), organizationId);
            assertThat(client.getActivity(activityId).path("status").asString()).isEqualTo("ACTIVITY_STATUS_COMPLETED");
            wallet.assertSignsWith(client);
        }
    }

    private String fresh() {
        String url = StoreKind.POSTGRES.freshDatabase(directory);
        databases.add(url);
        return url;
    }

    /** A libpq connection string for a JDBC URL of the test server (trust authentication). */
    private static String libpq(String jdbcUrl) {
        String name = jdbcUrl.substring(jdbcUrl.lastIndexOf('/') + 1, jdbcUrl.indexOf('?'));
        return "host=127.0.0.1 port=5432 user=postgres dbname=" + name;
    }

    private static void run(List<String> command) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(120, TimeUnit.SECONDS)).isTrue();
        assertThat(process.exitValue()).as("%s: %s", command.get(0), output).isZero();
    }

    private static List<String> arguments(Path data, String databaseUrl) {
        return new ArrayList<>(List.of("--data-dir", data.toString(), "--db-url", databaseUrl, "--port", "0"));
    }

    private static ApiKeyStamper rootStamper(Path data) {
        try {
            return ApiKeyStamper.fromPrivateKey(
                    ApiKeyStamper.Curve.P256, Files.readString(data.resolve("root-api-key.private")));
        } catch (IOException e) {
            throw new AssertionError("serve did not leave the root key in the data directory", e);
        }
    }
}
