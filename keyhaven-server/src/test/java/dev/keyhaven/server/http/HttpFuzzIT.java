package dev.keyhaven.server.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.keyhaven.client.KeyhavenClient;
import dev.keyhaven.client.Requests.WalletAccountParams;
import dev.keyhaven.server.http.RawExchange.Outcome;
import dev.keyhaven.server.testing.KeyhavenProcess;
import dev.keyhaven.server.testing.ServedJar;
import dev.keyhaven.server.testing.StoreKind;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A black-box fuzzer over HTTP: the packaged jar, on each store, with its auth proxy, receives thousands of hostile
 * requests made by {@link RequestMutations} from a seeded PRNG (the seed, count and time budget are the system
 * properties {@code keyhaven.fuzz.seed}, {@code keyhaven.fuzz.requests} and {@code keyhaven.fuzz.seconds}). Every
 * request must get a complete response within {@link #PER_REQUEST} that is not a 5xx (a JSON 501, the documented
 * refusal of an unimplemented feature, aside), a refusal must be a JSON error, a HEAD response must have no body; the
 * server must still run and answer {@code /health} afterwards, and the marker placed in every body must appear in no
 * line it logged. Each distinct failure is reported once, with a sample request and what came back.
 */
@ParameterizedClass
@EnumSource(StoreKind.class)
class HttpFuzzIT {
    private static final long SEED = Long.getLong("keyhaven.fuzz.seed", 18L);
    private static final int REQUESTS = Integer.getInteger("keyhaven.fuzz.requests", 2_000);
    private static final Duration BUDGET = Duration.ofSeconds(Long.getLong("keyhaven.fuzz.seconds", 45L));
    /**
     * Longer than any request takes when the server is well: past it, the request hangs. The server under test is
     * started with its header and body deadlines below it ({@link #DEADLINES}), so a slow or cut-off request gets its
     * 408 in time.
     */
    private static final Duration PER_REQUEST = Duration.ofSeconds(Long.getLong("keyhaven.fuzz.request-seconds", 5L));
    /** The jar's deadlines, below {@link #PER_REQUEST}. */
    private static final List<String> DEADLINES =
            List.of("--idle-timeout-seconds", "3", "--header-timeout-seconds", "2", "--body-timeout-seconds", "3");
    /** More {@code serve} options, space-separated, for the jar under test. */
    private static final String SERVE_ARGUMENTS = System.getProperty("keyhaven.fuzz.serve-args", "");
    /** A kind of request that hung this often is not sent again: each hang costs the whole timeout. */
    private static final int HANGS_PER_VARIANT = 2;
    /** Requests sent at once. */
    private static final int IN_FLIGHT = 8;

    private static final Pattern INCIDENT = Pattern.compile("internal server error \\(([0-9a-f-]{36})\\)");
    /** How each event of the server's log begins (logback.xml); the lines between two are the first's exception. */
    private static final Pattern LOG_EVENT = Pattern.compile("\\d{4}-\\d\\d-\\d\\dT");

    private static final Pattern CONFIG_ID = Pattern.compile("\"configId\"\\s*:\\s*\"([^\"]+)\"");

    @Parameter
    StoreKind store;

    @TempDir
    Path dataDirectory;

    @Test
    void noHostileRequestGetsA5xxOrHangsOrCrashesTheServerOrReachesTheLog() {
        int proxyPort = freePort();
        try (ServedJar jar = ServedJar.in(store, dataDirectory);
                KeyhavenProcess server = KeyhavenProcess.serve(serveArguments(jar, proxyPort), Map.of())) {
            KeyhavenClient root = new KeyhavenClient(server.baseUrl(), jar.rootStamper(), server.organizationId());
            String walletId = root.createWallet("fuzz", List.of(WalletAccountParams.ethereum(0)))
                    .result()
                    .path("walletId")
                    .asString();
            String address = root.query("list_wallet_accounts", Map.of("walletId", walletId))
                    .path("accounts")
                    .get(0)
                    .path("address")
                    .asString();
            RequestMutations mutations =
                    new RequestMutations(SEED, jar.rootStamper(), server.organizationId(), address, proxyConfigId(jar));
            Failures failures = new Failures();
            int sent = fuzz(mutations, server.port(), proxyPort, failures);

            if (!server.process().isAlive()) {
                failures.add(
                        "CRASH",
                        "the server process exited (status " + server.process().exitValue() + ")",
                        "after " + sent + " requests",
                        "");
            } else if (!(RawExchange.send(
                                    "127.0.0.1",
                                    server.port(),
                                    new RawRequest("health", "GET", "/health").requestLine("GET /health HTTP/1.1"),
                                    PER_REQUEST)
                            instanceof Outcome.Response health
                    && health.status() == 200)) {
                failures.add("HEALTH", "GET /health is not 200 after the run", "after " + sent + " requests", "");
            }
            scanLog(server, mutations.marker(), failures);
            assertThat(sent).as("requests sent").isGreaterThan(0);
            assertThat(failures.distinct())
                    .as(
                            "%s: %d requests (seed %d), distinct failures:%n%s%s",
                            store, sent, SEED, failures, incidents(server, failures))
                    .isEmpty();
        }
    }

    /**
     * Sends requests until the count or the time budget is spent, {@link #IN_FLIGHT} at a time so that a hanging one
     * does not hold up the rest. The requests are drawn in order from the seeded PRNG; only the order in which the
     * server sees them, and which ones are left out after their kind hung, vary from run to run.
     */
    private static int fuzz(RequestMutations mutations, int apiPort, int proxyPort, Failures failures) {
        Map<String, Integer> hangs = new ConcurrentHashMap<>();
        Semaphore inFlight = new Semaphore(IN_FLIGHT);
        long deadline = System.nanoTime() + BUDGET.toNanos();
        int sent = 0;
        try (ExecutorService senders = Executors.newVirtualThreadPerTaskExecutor()) {
            while (sent < REQUESTS && System.nanoTime() < deadline) {
                RawRequest request = mutations.next();
                String variant = variant(request.description());
                if (hangs.getOrDefault(variant, 0) >= HANGS_PER_VARIANT) {
                    continue;
                }
                int port = RequestMutations.forAuthProxy(request) ? proxyPort : apiPort;
                inFlight.acquireUninterruptibly();
                sent++;
                senders.submit(() -> {
                    try {
                        Outcome outcome = RawExchange.send("127.0.0.1", port, request, PER_REQUEST);
                        if (outcome instanceof Outcome.TimedOut) {
                            hangs.merge(variant, 1, Integer::sum);
                        }
                        check(request, outcome, variant, failures);
                    } finally {
                        inFlight.release();
                    }
                });
            }
        }
        return sent;
    }

    private static void check(RawRequest request, Outcome outcome, String variant, Failures failures) {
        switch (outcome) {
            case Outcome.Response r
            when r.status() >= 500 && !unimplemented(r) ->
                failures.add(variant, "status " + r.status(), request.description(), r.bodyText());
            case Outcome.Response r
            when r.status() >= 400 && !request.isHead() && !jsonError(r) ->
                failures.add(
                        variant,
                        "status " + r.status() + " without a JSON error body",
                        request.description(),
                        r.bodyText());
            case Outcome.Response r -> {}
            case Outcome.NoResponse n ->
                failures.add(variant, "no response (connection closed)", request.description(), n.why());
            case Outcome.Truncated t -> failures.add(variant, "response cut off", request.description(), t.why());
            case Outcome.TimedOut t ->
                failures.add(
                        variant,
                        "no complete response within " + PER_REQUEST,
                        request.description(),
                        t.bytesReceived() + " bytes received");
            case Outcome.BodyAfterHead b ->
                failures.add(
                        variant, "HEAD answered " + b.status() + " with a body", request.description(), b.followedBy());
        }
    }

    private static boolean unimplemented(Outcome.Response response) {
        return response.status() == 501
                && jsonError(response)
                && response.bodyText().contains("\"code\":12");
    }

    private static boolean jsonError(Outcome.Response response) {
        String body = response.bodyText().strip();
        return String.valueOf(response.headers().get("content-type")).startsWith("application/json")
                && body.startsWith("{")
                && body.contains("\"code\"")
                && body.contains("\"message\"");
    }

    /** The kind and the variant of a request ("HEADERS 3", "CHUNKED 5"): what makes two failures the same. */
    private static String variant(String description) {
        String[] words = description.split(" ", 3);
        return words.length < 2 ? description : words[0] + " " + words[1];
    }

    private static void scanLog(KeyhavenProcess server, String marker, Failures failures) {
        List<String> lines = new ArrayList<>(server.stdout());
        lines.addAll(server.stderr().lines().toList());
        String utf16 = new String(marker.getBytes(StandardCharsets.UTF_16LE), StandardCharsets.ISO_8859_1);
        for (String line : lines) {
            if (line.contains(marker) || line.contains(utf16) || line.contains(marker.toLowerCase(Locale.ROOT))) {
                failures.add("LOG", "a request body's marker in a log line", "", line);
            }
        }
    }

    /**
     * The server's side of every 500 in the report: the log event its incident id names, with the exception the log
     * line carries (a 500's body holds only the id, and the server's log is gone when the test ends).
     */
    private static String incidents(KeyhavenProcess server, Failures failures) {
        List<String> log = server.stderr().lines().toList();
        StringBuilder out = new StringBuilder();
        Matcher incident = INCIDENT.matcher(failures.toString());
        while (incident.find()) {
            out.append("--- the server's log for incident ")
                    .append(incident.group(1))
                    .append(":\n");
            for (int i = 0; i < log.size(); i++) {
                if (log.get(i).contains(incident.group(1))) {
                    out.append(log.get(i)).append('\n');
                    for (int j = i + 1;
                            j < log.size() && !LOG_EVENT.matcher(log.get(j)).lookingAt();
                            j++) {
                        out.append(log.get(j)).append('\n');
                    }
                }
            }
        }
        return out.toString();
    }

    private static List<String> serveArguments(ServedJar jar, int proxyPort) {
        List<String> arguments = new ArrayList<>(jar.serveArguments("--auth-proxy-port", Integer.toString(proxyPort)));
        arguments.addAll(DEADLINES);
        arguments.addAll(Arrays.stream(SERVE_ARGUMENTS.split(" "))
                .filter(a -> !a.isBlank())
                .toList());
        return arguments;
    }

    private static String proxyConfigId(ServedJar jar) {
        List<String> list = new ArrayList<>(List.of("auth-proxy-config", "--list"));
        list.addAll(jar.storeArguments());
        KeyhavenProcess.Result listed = KeyhavenProcess.run(list, Map.of());
        Matcher id = CONFIG_ID.matcher(listed.stdout());
        assertThat(id.find())
                .as("auth-proxy-config --list: %s %s", listed.stdout(), listed.stderr())
                .isTrue();
        return id.group(1);
    }

    private static int freePort() {
        try (ServerSocket free = new ServerSocket(0)) {
            return free.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Failures by what went wrong and for which kind of request, each with its first sample and a count. */
    private static final class Failures {
        private final Map<String, String> samples = new LinkedHashMap<>();
        private final Map<String, Integer> counts = new HashMap<>();

        synchronized void add(String variant, String what, String request, String answer) {
            String key = variant + " -> " + what;
            counts.merge(key, 1, Integer::sum);
            samples.putIfAbsent(key, "request: " + request + "\n    answer: " + abbreviate(answer));
        }

        synchronized List<String> distinct() {
            return List.copyOf(samples.keySet());
        }

        @Override
        public synchronized String toString() {
            StringBuilder out = new StringBuilder();
            samples.forEach((key, sample) -> out.append("  ")
                    .append(key)
                    .append(" (")
                    .append(counts.get(key))
                    .append("x)\n    ")
                    .append(sample)
                    .append('\n'));
            return out.toString();
        }

        private static String abbreviate(String text) {
            String oneLine = text.replace("\r", "\\r").replace("\n", "\\n").replace("\u0000", "\\0");
            return oneLine.length() <= 300 ? oneLine : oneLine.substring(0, 300) + "…";
        }
    }
}
