package dev.keyhaven.server.docs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import dev.keyhaven.server.docs.DocExamples.Block;
import dev.keyhaven.server.docs.DocExamples.Kind;
import dev.keyhaven.server.testing.KeyhavenProcess;
import dev.keyhaven.server.testing.NodeTools;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;

/**
 * Every code example of README.md and docs/*.md, run against the packaged {@code keyhaven.jar} started with
 * {@code serve} on an empty data directory (embedded store), exactly as a reader would copy it:
 *
 * <ul>
 * <li>TypeScript: each block names its packages ({@code // npm install name@version …}, the versions pinned in
 * {@code docs/examples/package.json}) and its file ({@code // npx tsx name.mts}); all are type-checked together with
 * {@code tsc --strict}, then each runs with {@code tsx} from {@code docs/examples}' lockfile;</li>
 * <li>Java: each block is a compact source file named by its {@code // java -cp … Name.java} line, run with the JDK's
 * source launcher against {@code keyhaven-client} and its dependencies (this test's class path);</li>
 * <li>shell: run with {@code bash -eo pipefail}, {@code java} being this JDK;</li>
 * <li>anything else must be marked {@code <!-- not run: reason -->}, or the build fails.</li>
 * </ul>
 *
 * Examples run in the order of the pages, from a directory holding the server's {@code data/}, with
 * {@code KEYHAVEN_URL} and {@code KEYHAVEN_AUTH_PROXY_URL} naming the listeners (the examples default to the
 * standard ports), and {@code KEYHAVEN_BUNDLE_SIGNER} and {@code KEYHAVEN_IDENTITY_KEY} holding the keys
 * {@code serve} printed (a reader pins them from that output). Without node 20+ and npm the TypeScript examples are skipped loudly, unless
 * {@code KEYHAVEN_REQUIRE_NODE=1}, which makes that a failure.
 */
class DocsExamplesIT {
    private static final Duration SERVER_START = Duration.ofSeconds(60);
    private static final Duration TSC = Duration.ofMinutes(2);
    private static final Duration EXAMPLE = Duration.ofSeconds(60);
    private static final Pattern SERVING = Pattern.compile("Keyhaven is serving on (http://\\S+)");
    private static final Pattern AUTH_PROXY = Pattern.compile("auth proxy:\\s+(http://\\S+)");
    private static final Pattern BUNDLE_SIGNER = Pattern.compile("bundle signer:\\s+(04[0-9a-fA-F]+)");
    private static final Pattern IDENTITY_KEY = Pattern.compile("identity key:\\s+(04[0-9a-fA-F]+)");
    private static final Pattern NPM_INSTALL = Pattern.compile("^// npm install (.+)$", Pattern.MULTILINE);
    private static final Pattern TSX = Pattern.compile("^// npx tsx ([A-Za-z0-9-]+\\.mts)\\b", Pattern.MULTILINE);
    private static final Pattern JAVA_FILE =
            Pattern.compile("^// java -cp \\S+ ([A-Za-z0-9]+)\\.java\\b", Pattern.MULTILINE);
    private static final Pattern PINNED = Pattern.compile("^(@?[a-z0-9][a-z0-9._/-]*)@(\\d[^\\s]*)$");

    private static Path root;
    private static Path examples;
    private static Path work;
    private static Process server;
    private static String url;
    private static String authProxyUrl;
    private static String bundleSigner;
    private static String identityKey;
    private static Optional<String> nodeProblem = Optional.empty();

    @BeforeAll
    static void startServer() throws Exception {
        root = repositoryRoot();
        examples = root.resolve("docs/examples");
        Path jar = root.resolve("keyhaven-server/target/keyhaven.jar");
        assertThat(jar)
                .as("the packaged server (the package phase builds it before integration tests)")
                .exists();
        work = Files.createTempDirectory("keyhaven-docs");
        // The shell examples name the jar by its path in a checkout.
        Files.createDirectories(work.resolve("keyhaven-server/target"));
        Files.createSymbolicLink(work.resolve("keyhaven-server/target/keyhaven.jar"), jar);
        nodeProblem = prepareNode();

        int authProxyPort;
        try (ServerSocket free = new ServerSocket(0)) {
            authProxyPort = free.getLocalPort();
        }
        Path log = work.resolve("server.log");
        List<String> command = new ArrayList<>(KeyhavenProcess.javaJar());
        command.addAll(List.of(
                "serve",
                "--data-dir",
                work.resolve("data").toString(),
                "--port",
                "0",
                "--auth-proxy-port",
                Integer.toString(authProxyPort)));
        ProcessBuilder builder =
                new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
        builder.environment().remove("KEYHAVEN_DB_URL");
        builder.environment().remove("KEYHAVEN_DATA_DIR");
        server = builder.start();
        Instant deadline = Instant.now().plus(SERVER_START);
        while (url == null || authProxyUrl == null || bundleSigner == null || identityKey == null) {
            String output = Files.readString(log, StandardCharsets.UTF_8);
            url = find(SERVING, output);
            authProxyUrl = find(AUTH_PROXY, output);
            bundleSigner = find(BUNDLE_SIGNER, output);
            identityKey = find(IDENTITY_KEY, output);
            if (!server.isAlive() || Instant.now().isAfter(deadline)) {
                System.out.println(output);
                fail("the server did not announce itself within " + SERVER_START + " (its output is above)");
            }
            Thread.sleep(100);
        }
    }

    @AfterAll
    static void stopServer() throws Exception {
        if (server != null) {
            server.destroy();
            if (!server.waitFor(15, TimeUnit.SECONDS)) {
                server.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
            System.out.println("[docs] server log:\n" + Files.readString(work.resolve("server.log")));
        }
        if (work != null) {
            deleteRecursively(work);
        }
    }

    @TestFactory
    Stream<DynamicTest> everyExampleRuns() throws IOException {
        List<Block> blocks = blocks();
        List<String> unmarked = blocks.stream()
                .filter(b -> b.kind() == Kind.UNMARKED)
                .map(b -> b.where() + " (```" + b.language() + ")")
                .toList();
        assertThat(unmarked)
                .as("code blocks that neither run (ts, java, sh) nor say <!-- not run: reason -->")
                .isEmpty();
        Map<Block, Path> typescript = typescriptFiles(blocks);
        List<DynamicTest> tests = new ArrayList<>();
        if (!typescript.isEmpty()) {
            tests.add(DynamicTest.dynamicTest(
                    "tsc --strict over " + typescript.size() + " TypeScript examples",
                    () -> typeCheck(typescript.values())));
        }
        for (Block block : blocks) {
            String name = block.where() + " (" + block.language() + ")";
            switch (block.kind()) {
                case TYPESCRIPT ->
                    tests.add(DynamicTest.dynamicTest(name, () -> runTypescript(block, typescript.get(block))));
                case JAVA -> tests.add(DynamicTest.dynamicTest(name, () -> runJava(block)));
                case SHELL -> tests.add(DynamicTest.dynamicTest(name, () -> runShell(block)));
                default -> {}
            }
        }
        return tests.stream();
    }

    // --- the pages ----------------------------------------------------------------------------------------------

    /** README.md, then docs/*.md by name; docs/reference/ is copied material, not ours. */
    private static List<Block> blocks() throws IOException {
        List<Block> blocks = new ArrayList<>(DocExamples.read(root.resolve("README.md"), "README.md"));
        try (Stream<Path> pages = Files.list(root.resolve("docs"))) {
            for (Path page : pages.filter(p -> p.getFileName().toString().endsWith(".md"))
                    .sorted()
                    .toList()) {
                blocks.addAll(DocExamples.read(page, "docs/" + page.getFileName()));
            }
        }
        return blocks;
    }

    // --- TypeScript ---------------------------------------------------------------------------------------------

    /** Each TypeScript block written to the file it names, after checking its install line against the lockfile. */
    private static Map<Block, Path> typescriptFiles(List<Block> blocks) throws IOException {
        Map<String, String> pinned = pinnedPackages();
        Map<Block, Path> files = new LinkedHashMap<>();
        Set<String> names = new HashSet<>();
        for (Block block :
                blocks.stream().filter(b -> b.kind() == Kind.TYPESCRIPT).toList()) {
            String install = find(NPM_INSTALL, block.text());
            assertThat(install)
                    .as(block.where() + ": a TypeScript example says `// npm install name@version …`")
                    .isNotNull();
            for (String spec : install.trim().split("\\s+")) {
                Matcher m = PINNED.matcher(spec);
                assertThat(m.matches())
                        .as(block.where() + ": '" + spec + "' is name@version")
                        .isTrue();
                assertThat(m.group(2))
                        .as(block.where() + ": the version of " + m.group(1)
                                + " is the one docs/examples/package.json pins")
                        .isEqualTo(pinned.get(m.group(1)));
            }
            String file = find(TSX, block.text());
            assertThat(file)
                    .as(block.where() + ": a TypeScript example says `// npx tsx name.mts`")
                    .isNotNull();
            assertThat(names.add(file))
                    .as(block.where() + ": " + file + " is named by one example only")
                    .isTrue();
            Path path = work.resolve(file);
            Files.writeString(path, block.text(), StandardCharsets.UTF_8);
            files.put(block, path);
        }
        return files;
    }

    private static Map<String, String> pinnedPackages() throws IOException {
        JsonNode dependencies = new ObjectMapper()
                .readTree(examples.resolve("package.json").toFile())
                .path("dependencies");
        Map<String, String> pinned = new LinkedHashMap<>();
        dependencies
                .properties()
                .forEach(e -> pinned.put(e.getKey(), e.getValue().asString()));
        return pinned;
    }

    private static void typeCheck(java.util.Collection<Path> files) throws Exception {
        requireNode();
        List<String> command = new ArrayList<>(List.of(
                examples.resolve("node_modules/.bin/tsc").toString(),
                "--strict",
                "--noEmit",
                "--skipLibCheck",
                "--module",
                "nodenext",
                "--moduleResolution",
                "nodenext",
                "--target",
                "es2022",
                "--types",
                "node"));
        files.forEach(f -> command.add(f.getFileName().toString()));
        Result result = run(new ProcessBuilder(command), "[tsc] ", TSC);
        assertThat(result.exitCode())
                .as("exit code of tsc --strict (its output is above)")
                .isZero();
    }

    private static void runTypescript(Block block, Path file) throws Exception {
        requireNode();
        Result result = run(
                new ProcessBuilder(
                        examples.resolve("node_modules/.bin/tsx").toString(),
                        file.getFileName().toString()),
                "[" + file.getFileName() + "] ",
                EXAMPLE);
        check(block, result);
    }

    // --- Java and shell -----------------------------------------------------------------------------------------

    private static void runJava(Block block) throws Exception {
        String name = find(JAVA_FILE, block.text());
        assertThat(name)
                .as(block.where() + ": a Java example says `// java -cp … Name.java`")
                .isNotNull();
        Path file = work.resolve(name + ".java");
        Files.writeString(file, block.text(), StandardCharsets.UTF_8);
        // The class path of this test holds keyhaven-client and everything it needs (and more).
        Result result = run(
                new ProcessBuilder(
                        KeyhavenProcess.java(),
                        "-cp",
                        System.getProperty("java.class.path"),
                        file.getFileName().toString()),
                "[" + name + ".java] ",
                EXAMPLE);
        check(block, result);
    }

    private static void runShell(Block block) throws Exception {
        ProcessBuilder builder = new ProcessBuilder("bash", "-eo", "pipefail", "-c", block.text());
        String javaBin = Path.of(KeyhavenProcess.java()).getParent().toString();
        builder.environment().put("PATH", javaBin + File.pathSeparator + System.getenv("PATH"));
        builder.environment().put("JAVA_HOME", Path.of(javaBin).getParent().toString());
        Result result = run(builder, "[sh " + block.where() + "] ", EXAMPLE);
        check(block, result);
    }

    private static void check(Block block, Result result) {
        assertThat(result.exitCode())
                .as(block.where() + ": the example's exit code (its output is above)")
                .isZero();
        for (String expected : block.expectations()) {
            assertThat(result.output())
                    .as(block.where() + ": the example's output")
                    .contains(expected);
        }
    }

    // --- processes ----------------------------------------------------------------------------------------------

    private record Result(int exitCode, String output) {}

    /** Runs a child in the work directory with the listeners in its environment; prints its output. */
    private static Result run(ProcessBuilder builder, String prefix, Duration timeout) throws Exception {
        Path log = Files.createTempFile(work, "output", ".log");
        builder.directory(work.toFile()).redirectErrorStream(true).redirectOutput(log.toFile());
        builder.environment().put("KEYHAVEN_URL", url);
        builder.environment().put("KEYHAVEN_AUTH_PROXY_URL", authProxyUrl);
        // What a reader pins from the lines serve printed.
        builder.environment().put("KEYHAVEN_BUNDLE_SIGNER", bundleSigner);
        builder.environment().put("KEYHAVEN_IDENTITY_KEY", identityKey);
        Process process = builder.start();
        boolean finished = process.waitFor(timeout.toSeconds(), TimeUnit.SECONDS);
        if (!finished) {
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
        String output = Files.readString(log, StandardCharsets.UTF_8);
        output.lines().forEach(line -> System.out.println(prefix + line));
        if (!finished) {
            fail(prefix.trim() + " did not finish within " + timeout);
        }
        return new Result(process.exitValue(), output);
    }

    /** Node 20+ and npm, with docs/examples installed from its lockfile; or why not. */
    private static Optional<String> prepareNode() throws Exception {
        Optional<Path> node = NodeTools.find("node");
        if (node.isEmpty() || NodeTools.find("npm").isEmpty()) {
            return Optional.of("'node' or 'npm' is not on the PATH");
        }
        Optional<String> tooOld = NodeTools.tooOld(node.get());
        if (tooOld.isPresent()) {
            return tooOld;
        }
        new NodeTools("the docs' TypeScript examples").installPackagesIfStale(examples);
        // The examples import their packages from the directory they run in, as a reader's project would.
        Files.createSymbolicLink(work.resolve("node_modules"), examples.resolve("node_modules"));
        return Optional.empty();
    }

    /** Skips loudly, or fails when {@code KEYHAVEN_REQUIRE_NODE=1}. */
    private static void requireNode() {
        if (nodeProblem.isEmpty()) {
            return;
        }
        String reason = nodeProblem.get();
        if ("1".equals(System.getenv("KEYHAVEN_REQUIRE_NODE"))) {
            fail("the TypeScript examples cannot run: " + reason + ", and KEYHAVEN_REQUIRE_NODE=1");
        }
        System.err.println("!!! SKIPPING a TypeScript example of the docs: " + reason
                + " (set KEYHAVEN_REQUIRE_NODE=1 to fail instead)");
        Assumptions.abort("SKIPPED LOUDLY: TypeScript examples of the docs: " + reason);
    }

    private static String find(Pattern pattern, String text) {
        Matcher m = pattern.matcher(text);
        return m.find() ? m.group(1) : null;
    }

    private static Path repositoryRoot() {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            if (Files.isRegularFile(dir.resolve("docs/examples/package.json"))) {
                return dir;
            }
        }
        throw new IllegalStateException(
                "no docs/examples/package.json above " + Path.of("").toAbsolutePath());
    }

    private static void deleteRecursively(Path directory) throws IOException {
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
