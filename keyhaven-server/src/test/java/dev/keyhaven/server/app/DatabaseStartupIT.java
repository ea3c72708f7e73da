package dev.keyhaven.server.app;

import static org.assertj.core.api.Assertions.assertThat;

import dev.keyhaven.client.ApiKeyStamper;
import dev.keyhaven.server.testing.KeyhavenProcess;
import dev.keyhaven.server.testing.KeyhavenProcess.Result;
import dev.keyhaven.server.testing.StoreKind;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A PostgreSQL that cannot be opened stops the packaged jar at once with one line naming the server and the reason:
 * exit status 1, nothing on stdout, no stack trace, and never the URL (it may carry a password).
 */
class DatabaseStartupIT {
    @TempDir
    Path directory;

    private static int closedPort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    private static void assertOneLine(Result result, String line) {
        assertThat(result.stderr().lines().toList()).as("stderr").containsExactly(line);
        assertThat(result.stdout()).as("stdout").isEmpty();
        assertThat(result.exitCode()).as("exit status").isEqualTo(1);
    }

    @Test
    void aRefusedConnectionStopsServeWithOneLine() throws IOException {
        int port = closedPort();
        Result serve = KeyhavenProcess.run(
                List.of(
                        "serve",
                        "--data-dir",
                        directory.toString(),
                        "--port",
                        "0",
                        "--db-url",
                        "jdbc:postgresql://127.0.0.1:" + port + "/keyhaven?user=postgres&password=hunter2"),
                Map.of());
        assertOneLine(
                serve,
                "keyhaven: cannot open the database: PostgreSQL at 127.0.0.1:" + port + " refused the connection");
    }

    @Test
    void aMissingDatabaseStopsServeWithOneLine() {
        String name = "keyhaven_missing_"
                + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
        String url = StoreKind.POSTGRES.freshDatabase(directory);
        try {
            String missing = url.substring(0, url.lastIndexOf('/') + 1) + name + url.substring(url.indexOf('?'));
            Result serve = KeyhavenProcess.run(
                    List.of("serve", "--data-dir", directory.toString(), "--port", "0"),
                    Map.of("KEYHAVEN_DB_URL", missing));
            String host = missing.replaceFirst("^jdbc:postgresql://([^:/]+):(\\d+)/.*$", "$1");
            String port = missing.replaceFirst("^jdbc:postgresql://([^:/]+):(\\d+)/.*$", "$2");
            String user = missing.replaceFirst("^.*[?&]user=([^&]+).*$", "$1");
            assertOneLine(
                    serve,
                    "keyhaven: cannot open the database: PostgreSQL at " + host + ":" + port
                            + " has no database \"" + name + "\"; create it with: createdb -h " + host + " -p " + port
                            + " -U " + user + " " + name);
        } finally {
            StoreKind.POSTGRES.drop(url);
        }
    }

    @Test
    void everyCommandThatOpensTheStoreSaysTheSame() throws IOException {
        int port = closedPort();
        String url = "jdbc:postgresql://127.0.0.1:" + port + "/keyhaven?user=postgres";
        Result init = KeyhavenProcess.run(
                List.of(
                        "init",
                        "--data-dir",
                        directory.toString(),
                        "--db-url",
                        url,
                        "--organization-name",
                        "Acme",
                        "--user-name",
                        "ops",
                        "--api-public-key",
                        ApiKeyStamper.generate(ApiKeyStamper.Curve.P256, new SecureRandom())
                                .publicKey()),
                Map.of());
        assertOneLine(
                init,
                "keyhaven: cannot open the database: PostgreSQL at 127.0.0.1:" + port + " refused the connection");
        Result signerKey = KeyhavenProcess.run(
                List.of("signer-key", "--data-dir", directory.toString(), "--db-url", url), Map.of());
        assertOneLine(
                signerKey,
                "keyhaven: cannot open the database: PostgreSQL at 127.0.0.1:" + port + " refused the connection");
    }
}
