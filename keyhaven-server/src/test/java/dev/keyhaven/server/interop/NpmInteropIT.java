package dev.keyhaven.server.interop;

import static org.assertj.core.api.Assertions.assertThat;

import dev.keyhaven.server.testing.NodeTools;
import dev.keyhaven.server.testing.NodeTools.Child;
import dev.keyhaven.server.testing.StoreKind;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Turnkey's official, unmodified npm clients ({@code @turnkey/http} with {@code @turnkey/api-key-stamper}, and
 * {@code @turnkey/sdk-server}) against the real {@code keyhaven.jar}, started with {@code serve} on an empty data
 * directory, over the embedded store and over PostgreSQL. The JavaScript suite lives in {@code interop/} at the
 * repository root and runs with node's own test runner; its output goes to this test's log.
 *
 * <p>Without {@code node} (20 or newer) and {@code npm} on the PATH the test is skipped loudly, unless
 * {@code KEYHAVEN_REQUIRE_NODE=1}, which turns the skip into a failure.
 */
class NpmInteropIT {
    private static final Duration SERVER_START = Duration.ofSeconds(60);
    private static final Duration SERVER_STOP = Duration.ofSeconds(15);
    private static final NodeTools NODE = new NodeTools("the npm interop tests");
    // The suite takes 35-50 s on a shared 2-core machine since the chain signing files came; room for a slow store.
    private static final Duration NODE_TESTS = Duration.ofMinutes(3);
    private static final int FAILURE_LINES = 120;
    private static final Pattern SERVING = Pattern.compile("Keyhaven is serving on (http://\\S+)");
    private static final Pattern ORGANIZATION = Pattern.compile("organization id:\\s+([0-9a-fA-F-]{36})");
    private static final Pattern AUTH_PROXY = Pattern.compile("auth proxy:\\s+(http://\\S+)");
    private static final Pattern AUTH_PROXY_CONFIG = Pattern.compile("auth proxy config id: (\\S+)");

    private static Path interop;
    private static Path jar;
    private static Path node;

    @BeforeAll
    static void prepare() throws IOException, InterruptedException {
        interop = NodeTools.packageDirectory("interop");
        jar = interop.resolveSibling("keyhaven-server/target/keyhaven.jar");
        assertThat(jar)
                .as("the packaged server (the package phase builds it before integration tests)")
                .exists();
        node = NODE.node();
        NODE.installPackagesIfStale(interop);
    }

    @ParameterizedTest
    @EnumSource(StoreKind.class)
    void officialClientsWorkAgainstTheServedJar(StoreKind store) throws Exception {
        Path work = Files.createTempDirectory("keyhaven-interop");
        Optional<String> databaseUrl = Optional.empty();
        Server server = null;
        try {
            if (store == StoreKind.POSTGRES) {
                databaseUrl = Optional.of(store.freshDatabase(work));
            }
            System.out.println("[interop] serving " + store
                    + (databaseUrl.isPresent()
                            ? " database " + databaseName(databaseUrl.get())
                            : " (the embedded default)")
                    + " from " + jar);
            Path dataDirectory = work.resolve("data");
            Path oidcIssuer = TestOidcIssuer.write(work);
            server = startServer(dataDirectory, databaseUrl, oidcIssuer, work.resolve("server.log"));
            Announcement announcement = server.announcement();
            runNodeTests(announcement, dataDirectory.resolve("root-api-key"), oidcIssuer, work);
        } finally {
            if (server != null) {
                server.stop();
            }
            databaseUrl.ifPresent(store::drop);
            deleteRecursively(work);
        }
    }

    // --- the server ---------------------------------------------------------------------------------------------

    /** What {@code serve} announces on stdout once it listens: where, and the root organization it created. */
    private record Announcement(String url, String organizationId, String authProxyUrl, String authProxyConfigId) {}

    /** The {@code serve} child and what it announced. */
    private record Server(
            Child child,
            CompletableFuture<String> url,
            CompletableFuture<String> organizationId,
            CompletableFuture<String> authProxyUrl,
            CompletableFuture<String> authProxyConfigId) {

        Announcement announcement() throws Exception {
            try {
                return new Announcement(
                        url.get(SERVER_START.toSeconds(), TimeUnit.SECONDS),
                        organizationId.get(SERVER_START.toSeconds(), TimeUnit.SECONDS),
                        authProxyUrl.get(SERVER_START.toSeconds(), TimeUnit.SECONDS),
                        authProxyConfigId.get(SERVER_START.toSeconds(), TimeUnit.SECONDS));
            } catch (TimeoutException e) {
                throw new AssertionError(
                        "the server did not announce itself within " + SERVER_START + " (its output is above)", e);
            }
        }

        /** SIGTERM (the server finishes in-flight requests and closes its database), then, if need be, SIGKILL. */
        void stop() throws InterruptedException {
            Process process = child.process();
            process.destroy();
            if (!process.waitFor(SERVER_STOP.toSeconds(), TimeUnit.SECONDS)) {
                System.err.println(
                        "[interop] the server did not stop within " + SERVER_STOP + " of SIGTERM; killing it");
                child.kill();
            }
            child.drain();
        }
    }

    private static Server startServer(Path dataDirectory, Optional<String> databaseUrl, Path oidcIssuer, Path log)
            throws IOException {
        String java = ProcessHandle.current()
                .info()
                .command()
                .orElseThrow(() -> new IllegalStateException("cannot tell which java binary runs this JVM"));
        int authProxyPort;
        try (java.net.ServerSocket free = new java.net.ServerSocket(0)) {
            authProxyPort = free.getLocalPort();
        }
        List<String> command = new ArrayList<>(List.of(
                java,
                "-jar",
                jar.toString(),
                "serve",
                "--data-dir",
                dataDirectory.toString(),
                "--port",
                "0",
                "--auth-proxy-port",
                Integer.toString(authProxyPort),
                // test/webhooks.test.mjs: Turnkey's header names, and a plain-http receiver on loopback.
                "--webhook-header-prefix",
                "Turnkey",
                "--webhook-allow-insecure-urls",
                // test/older-sdk-releases.test.mjs: one issuer whose tokens the tests sign (TestOidcIssuer).
                "--oidc-issuers",
                TestOidcIssuer.issuersFile(oidcIssuer).toString()));
        databaseUrl.ifPresent(url -> command.addAll(List.of("--db-url", url)));
        ProcessBuilder builder = new ProcessBuilder(command);
        // Options on the command line win over these, but a stray one must not point the embedded run elsewhere.
        builder.environment().remove("KEYHAVEN_DB_URL");
        builder.environment().remove("KEYHAVEN_DATA_DIR");
        CompletableFuture<String> url = new CompletableFuture<>();
        CompletableFuture<String> organizationId = new CompletableFuture<>();
        CompletableFuture<String> authProxyUrl = new CompletableFuture<>();
        CompletableFuture<String> authProxyConfigId = new CompletableFuture<>();
        Child child = NodeTools.start(builder, log, "[keyhaven] ", line -> {
            Matcher proxy = AUTH_PROXY.matcher(line);
            if (proxy.find()) {
                authProxyUrl.complete(proxy.group(1));
            }
            Matcher config = AUTH_PROXY_CONFIG.matcher(line);
            if (config.find()) {
                authProxyConfigId.complete(config.group(1));
            }
            Matcher serving = SERVING.matcher(line);
            if (serving.find()) {
                url.complete(serving.group(1));
            }
            Matcher organization = ORGANIZATION.matcher(line);
            if (organization.find()) {
                organizationId.complete(organization.group(1));
            }
        });
        child.process().onExit().thenRun(() -> {
            IllegalStateException exited = new IllegalStateException("the server exited with "
                    + child.process().exitValue() + " before announcing itself (its output is above)");
            url.completeExceptionally(exited);
            organizationId.completeExceptionally(exited);
            authProxyUrl.completeExceptionally(exited);
            authProxyConfigId.completeExceptionally(exited);
        });
        return new Server(child, url, organizationId, authProxyUrl, authProxyConfigId);
    }

    // --- node and npm -------------------------------------------------------------------------------------------

    private static void runNodeTests(Announcement announcement, Path keyPrefix, Path oidcIssuer, Path work)
            throws Exception {
        Path tapReport = work.resolve("node-tests.tap");
        List<String> command = new ArrayList<>(List.of(
                node.toString(),
                "--test",
                "--test-reporter=spec",
                "--test-reporter-destination=stdout",
                "--test-reporter=tap",
                "--test-reporter-destination=" + tapReport));
        List<Path> testFiles = testFiles();
        assertThat(testFiles)
                .as("JavaScript test files in " + interop.resolve("test"))
                .isNotEmpty();
        testFiles.forEach(f -> command.add(interop.relativize(f).toString()));
        ProcessBuilder builder = new ProcessBuilder(command).directory(interop.toFile());
        Map<String, String> environment = builder.environment();
        environment.put("KEYHAVEN_URL", announcement.url());
        environment.put("KEYHAVEN_ORGANIZATION_ID", announcement.organizationId());
        environment.put("KEYHAVEN_API_KEY_PREFIX", keyPrefix.toString());
        environment.put("KEYHAVEN_AUTH_PROXY_URL", announcement.authProxyUrl());
        environment.put("KEYHAVEN_AUTH_PROXY_CONFIG_ID", announcement.authProxyConfigId());
        environment.put(
                "KEYHAVEN_TEST_OIDC_ISSUER",
                TestOidcIssuer.signingFile(oidcIssuer).toString());

        int exitCode = NodeTools.run(builder, work.resolve("node.log"), "[node] ", NODE_TESTS);

        String tap = Files.exists(tapReport) ? Files.readString(tapReport, StandardCharsets.UTF_8) : "";
        // The failures themselves in the assertion's message: a CI summary shows the message, not the whole log.
        assertThat(exitCode)
                .as("exit code of node --test (its output is above); what failed:%n%s", failures(tap))
                .isZero();
        int total = tapCount(tap, "tests");
        assertThat(total).as("tests node ran").isPositive();
        assertThat(tapCount(tap, "pass")).as("tests that passed, of " + total).isEqualTo(total);
    }

    /**
     * The TAP report's failed tests, each with its diagnostics (the error, the expected and actual values, the stack),
     * at most {@value #FAILURE_LINES} lines.
     */
    static String failures(String tap) {
        List<String> kept = new ArrayList<>();
        boolean inFailure = false;
        for (String line : tap.split("\n", -1)) {
            if (line.stripLeading().startsWith("not ok ")) {
                inFailure = true;
            }
            if (inFailure && kept.size() < FAILURE_LINES) {
                kept.add(line);
            }
            if (inFailure && line.strip().equals("...")) {
                inFailure = false;
            }
        }
        return kept.isEmpty() ? "(no failed test in the TAP report)" : String.join(System.lineSeparator(), kept);
    }

    private static int tapCount(String tap, String name) {
        Matcher matcher =
                Pattern.compile("^# " + name + " (\\d+)$", Pattern.MULTILINE).matcher(tap);
        assertThat(matcher.find()).as("'# " + name + "' in the TAP report").isTrue();
        return Integer.parseInt(matcher.group(1));
    }

    /**
     * Every test file, or, for a targeted run, those whose names start with one of the comma-separated prefixes of
     * {@code -Dinterop.only} (e.g. {@code -Dinterop.only=legacy-auth}).
     */
    private static List<Path> testFiles() throws IOException {
        List<String> only = Optional.ofNullable(System.getProperty("interop.only"))
                .filter(s -> !s.isBlank())
                .map(s -> List.of(s.split(",")))
                .orElse(List.of(""));
        try (Stream<Path> files = Files.list(interop.resolve("test"))) {
            return files.filter(f -> f.getFileName().toString().endsWith(".test.mjs"))
                    .filter(f -> only.stream()
                            .anyMatch(prefix -> f.getFileName().toString().startsWith(prefix.trim())))
                    .sorted()
                    .toList();
        }
    }

    /** The database name of a JDBC URL, without host, user or any other parameter. */
    private static String databaseName(String jdbcUrl) {
        String path = jdbcUrl.contains("?") ? jdbcUrl.substring(0, jdbcUrl.indexOf('?')) : jdbcUrl;
        return path.substring(path.lastIndexOf('/') + 1);
    }

    private static void deleteRecursively(Path directory) throws IOException {
        if (!Files.exists(directory)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(directory)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> {
                try {
                    Files.delete(p);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        }
    }
}
