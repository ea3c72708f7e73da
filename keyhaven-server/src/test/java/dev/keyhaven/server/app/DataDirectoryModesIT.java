package dev.keyhaven.server.app;

import static org.assertj.core.api.Assertions.assertThat;

import dev.keyhaven.client.ApiKeyStamper;
import dev.keyhaven.server.testing.Json;
import dev.keyhaven.server.testing.KeyhavenProcess;
import dev.keyhaven.server.testing.KeyhavenProcess.Result;
import dev.keyhaven.server.testing.ServedJar;
import dev.keyhaven.server.testing.StoreKind;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The data directory is the owner's alone, on both stores: 0700, with every file Keyhaven writes in it 0600 and
 * every directory 0700 (database, WAL and shared-memory files, master key, root key pair, sms.log, the Maildir and
 * its messages), whether Keyhaven created them or found them looser at start, which it says in its log.
 */
class DataDirectoryModesIT {
    private static final String DIRECTORY = "rwx------";
    private static final String FILE = "rw-------";

    @TempDir
    Path directory;

    /** The permissions of the data directory and everything in it, by path relative to it ("." for itself). */
    private static Map<String, String> modes(Path data) {
        Map<String, String> modes = new TreeMap<>();
        try (Stream<Path> paths = Files.walk(data)) {
            paths.forEach(path -> {
                try {
                    String name = data.relativize(path).toString();
                    modes.put(
                            name.isEmpty() ? "." : name,
                            PosixFilePermissions.toString(
                                    Files.getPosixFilePermissions(path, LinkOption.NOFOLLOW_LINKS)));
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return modes;
    }

    private static void assertOwnerOnly(Path data, List<String> expected) {
        Map<String, String> modes = modes(data);
        assertThat(modes).as("what the data directory holds").containsKeys(expected.toArray(String[]::new));
        modes.forEach((name, mode) -> assertThat(mode)
                .as(name)
                .isEqualTo(Files.isDirectory(data.resolve(name), LinkOption.NOFOLLOW_LINKS) ? DIRECTORY : FILE));
    }

    private static void loosen(Path data) throws IOException {
        try (Stream<Path> paths = Files.walk(data)) {
            for (Path path : paths.toList()) {
                Files.setPosixFilePermissions(
                        path, PosixFilePermissions.fromString(Files.isDirectory(path) ? "rwxr-xr-x" : "rw-r--r--"));
            }
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    /** Sends an SMS code (to sms.log) and an email code (to the Maildir) through the auth proxy. */
    private static void sendCodes(int proxyPort, String configId) throws Exception {
        HttpClient http = HttpClient.newHttpClient();
        for (String body : List.of(
                "{\"otpType\":\"OTP_TYPE_SMS\",\"contact\":\"+15557654321\"}",
                "{\"otpType\":\"OTP_TYPE_EMAIL\",\"contact\":\"someone@example.com\"}")) {
            HttpResponse<String> response = http.send(
                    HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + proxyPort + "/v1/otp_init_v2"))
                            .timeout(Duration.ofSeconds(30))
                            .header("X-Auth-Proxy-Config-Id", configId)
                            .POST(HttpRequest.BodyPublishers.ofString(body))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        }
    }

    /** Runs {@code keyhaven COMMAND} on the jar's store to completion, which must succeed. */
    private static Result run(ServedJar jar, String command, String... more) {
        List<String> arguments = new ArrayList<>(List.of(command));
        arguments.addAll(jar.storeArguments());
        arguments.addAll(List.of(more));
        Result result = KeyhavenProcess.run(arguments, Map.of());
        assertThat(result.exitCode()).as("%s: %s", command, result.stderr()).isZero();
        return result;
    }

    private static List<String> written(StoreKind store, Path data, String... more) throws IOException {
        List<String> expected = new ArrayList<>(
                List.of(".", "master.key", "sms.log", "maildir", "maildir/new", "maildir/tmp", "maildir/cur"));
        try (Stream<Path> messages = Files.list(data.resolve("maildir/new"))) {
            assertThat(messages.count()).as("messages in the Maildir").isEqualTo(1);
        }
        if (store == StoreKind.SQLITE) {
            expected.addAll(List.of("keyhaven.db", "keyhaven.db-wal", "keyhaven.db-shm"));
        }
        expected.addAll(List.of(more));
        return expected;
    }

    @ParameterizedTest
    @EnumSource(StoreKind.class)
    void whatServeCreatesIsTheOwnersAlone(StoreKind store) throws Exception {
        Path data = directory.resolve("data");
        int proxyPort = freePort();
        try (ServedJar jar = ServedJar.in(store, data);
                KeyhavenProcess server = KeyhavenProcess.serve(
                        jar.serveArguments("--auth-proxy-port", Integer.toString(proxyPort), "--sms-provider", "file"),
                        Map.of())) {
            String configId = server.awaitStdout(
                            line -> line.startsWith("auth proxy config id: "), Duration.ofSeconds(10))
                    .split(" ")[4];
            run(jar, "auth-proxy-config", "--config-id", configId, "--sms-enabled", "true");
            sendCodes(proxyPort, configId);
            server.explainingFailures(() -> {
                try {
                    assertOwnerOnly(data, written(store, data, "root-api-key.public", "root-api-key.private"));
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        }
    }

    @ParameterizedTest
    @EnumSource(StoreKind.class)
    void serveTightensADirectoryAndFilesFoundLooser(StoreKind store) throws Exception {
        Path data = Files.createDirectory(directory.resolve("data"));
        Files.setPosixFilePermissions(data, PosixFilePermissions.fromString("rwxr-xr-x"));
        try (ServedJar jar = ServedJar.in(store, data)) {
            Result created = run(
                    jar,
                    "init",
                    "--organization-name",
                    "Acme",
                    "--user-name",
                    "ops",
                    "--api-public-key",
                    ApiKeyStamper.generate(ApiKeyStamper.Curve.P256, new SecureRandom())
                            .publicKey());
            String configId = Json.parse(Json.bytes(created.stdout().strip()))
                    .path("authProxyConfigId")
                    .asString();
            run(jar, "auth-proxy-config", "--config-id", configId, "--sms-enabled", "true");
            // As a restore from a backup, a copy by hand or an older Keyhaven may leave them.
            Files.writeString(data.resolve("sms.log"), "2020-01-01T00:00:00Z +15550000000 an older line\n");
            Files.createDirectories(data.resolve("maildir/new"));
            loosen(data);

            int proxyPort = freePort();
            try (KeyhavenProcess server = KeyhavenProcess.serve(
                    jar.serveArguments("--auth-proxy-port", Integer.toString(proxyPort), "--sms-provider", "file"),
                    Map.of())) {
                sendCodes(proxyPort, configId);
                server.explainingFailures(() -> {
                    try {
                        assertOwnerOnly(data, written(store, data));
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                });
                assertThat(server.stderr())
                        .contains("tightened the permissions of the data directory to its owner " + "only path=\""
                                + data + "\" was=\"rwxr-xr-x\" now=\"rwx------\"")
                        .contains("path=\"" + data.resolve("master.key") + "\" was=\"rw-r--r--\" now=\"rw-------\"")
                        .contains("path=\"" + data.resolve("sms.log") + "\" was=\"rw-r--r--\" now=\"rw-------\"");
            }
        }
    }
}
