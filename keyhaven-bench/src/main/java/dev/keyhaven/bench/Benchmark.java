package dev.keyhaven.bench;

import dev.keyhaven.client.Activity;
import dev.keyhaven.client.ApiKeyStamper;
import dev.keyhaven.client.KeyhavenClient;
import dev.keyhaven.client.Requests;
import dev.keyhaven.client.Stamper;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.function.IntFunction;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import tools.jackson.databind.JsonNode;

/**
 * Measures operations end to end over HTTP against the real jar, on the embedded store and on PostgreSQL, and prints
 * Markdown tables. For each scenario: a closed loop of {@code --concurrency} clients finds the peak throughput, then
 * (unless {@code --half-load-seconds 0}) an open loop scheduled at {@code --half-load-fraction} of that peak measures
 * latency at that load. With {@code --soak-minutes N} an open loop at the same fraction of the peak runs for N
 * minutes before that, reported window by window ({@code --soak-window-seconds}, a minute by default: a second shows a
 * stall) with the server's resident memory.
 *
 * <pre>
 * java -jar keyhaven-bench/target/keyhaven-bench.jar [--jar keyhaven-server/target/keyhaven.jar]
 *     [--stores sqlite,postgres] [--scenarios whoami,create_users,create_users_orgs,sign_raw_payload,list_wallet_accounts]
 *     [--concurrency 16] [--warmup-seconds 10] [--seconds 20]
 *     [--half-load-fraction 0.5] [--half-load-warmup-seconds 5] [--half-load-seconds 20] [--open-loop-connections 64]
 *     [--soak-minutes 0] [--soak-window-seconds 60] [--prepare-rate 15000] [--pg-admin-url jdbc:postgresql://127.0.0.1:5432/postgres?user=postgres]
 * </pre>
 *
 * <p>Scenarios:
 * <ul>
 * <li>{@code whoami}: one constant query body.</li>
 * <li>{@code create_users}: each body creates one email-only user in the root organization.</li>
 * <li>{@code create_users_orgs}: the same spread over {@code --concurrency} sub-organizations.</li>
 * <li>{@code sign_raw_payload}: V2, an Ethereum (secp256k1) wallet account, {@code PAYLOAD_ENCODING_HEXADECIMAL},
 * {@code HASH_FUNCTION_KECCAK256}; every body has its own 32-byte payload and timestamp, so none is an idempotent
 * resubmission, and each answer must say {@code ACTIVITY_STATUS_COMPLETED}.</li>
 * <li>{@code list_wallet_accounts}: a wallet of 100 Ethereum accounts, {@code paginationOptions.limit "100"}, one
 * constant body.</li>
 * </ul>
 */
public final class Benchmark {
    static final List<String> SCENARIOS =
            List.of("whoami", "create_users", "create_users_orgs", "sign_raw_payload", "list_wallet_accounts");
    private static final byte[] COMPLETED = "\"ACTIVITY_STATUS_COMPLETED\"".getBytes(StandardCharsets.US_ASCII);
    private static final int LIST_ACCOUNTS = 100;

    private Benchmark() {}

    /** One scenario, ready to run: its requests and what a successful answer contains (null: status 200 only). */
    private record Scenario(String operation, RequestSource requests, byte[] expect) {}

    public static void main(String[] args) throws Exception {
        Map<String, String> options = options(args);
        Path jar = Path.of(options.getOrDefault("jar", "keyhaven-server/target/keyhaven.jar"));
        List<String> stores =
                List.of(options.getOrDefault("stores", "sqlite,postgres").split(","));
        List<String> scenarios = List.of(
                options.getOrDefault("scenarios", String.join(",", SCENARIOS)).split(","));
        for (String scenario : scenarios) {
            if (!SCENARIOS.contains(scenario)) {
                throw new IOException("unknown scenario " + scenario + "; known: " + SCENARIOS);
            }
        }
        int concurrency = Integer.parseInt(options.getOrDefault("concurrency", "16"));
        Duration warmup = Duration.ofSeconds(Long.parseLong(options.getOrDefault("warmup-seconds", "10")));
        Duration measure = Duration.ofSeconds(Long.parseLong(options.getOrDefault("seconds", "20")));
        double halfFraction = Double.parseDouble(options.getOrDefault("half-load-fraction", "0.5"));
        Duration halfWarmup = Duration.ofSeconds(Long.parseLong(options.getOrDefault("half-load-warmup-seconds", "5")));
        Duration halfMeasure = Duration.ofSeconds(
                Long.parseLong(options.getOrDefault("half-load-seconds", Long.toString(measure.toSeconds()))));
        int openConnections = Integer.parseInt(options.getOrDefault("open-loop-connections", "64"));
        int soakMinutes = Integer.parseInt(options.getOrDefault("soak-minutes", "0"));
        Duration soakWindow = Duration.ofSeconds(Long.parseLong(options.getOrDefault("soak-window-seconds", "60")));
        if (soakWindow.isZero()
                || soakWindow.isNegative()
                || Duration.ofMinutes(1).toSeconds() % soakWindow.toSeconds() != 0) {
            throw new IOException("--soak-window-seconds must divide a minute, got " + soakWindow.toSeconds());
        }
        int prepareRate = Integer.parseInt(options.getOrDefault("prepare-rate", "15000"));
        String pgAdmin =
                options.getOrDefault("pg-admin-url", "jdbc:postgresql://127.0.0.1:5432/postgres?user=postgres");

        List<LoadResult> closed = new ArrayList<>();
        List<LoadResult[]> halfLoad = new ArrayList<>();
        List<String> soakRows = new ArrayList<>();
        for (String store : stores) {
            Path data = Files.createTempDirectory("keyhaven-bench");
            List<String> extra = new ArrayList<>(List.of("--max-users-per-organization", "100000000"));
            String database = null;
            if (store.equals("postgres")) {
                database = "keyhaven_bench_"
                        + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
                execute(pgAdmin, "CREATE DATABASE " + database);
                extra.addAll(List.of("--db-url", pgAdmin.replace("/postgres?", "/" + database + "?")));
            }
            try (ServerProcess server = ServerProcess.start(jar, data, extra);
                    ApiKeyStamper root = ApiKeyStamper.fromPrivateKey(
                            ApiKeyStamper.Curve.P256,
                            Files.readString(data.resolve("root-api-key.private"))
                                    .trim())) {
                LoadDriver driver = new LoadDriver(new CpuMeter(server.pid()));
                for (String name : scenarios) {
                    Scenario scenario = scenario(name, server, root, concurrency);
                    scenario.requests().prepare((int) Math.min(
                            Integer.MAX_VALUE / 2, (long) prepareRate * (warmup.toSeconds() + measure.toSeconds())));
                    System.err.printf(
                            Locale.ROOT,
                            "%s on %s: closed loop, %d clients%n",
                            scenario.operation(),
                            store,
                            concurrency);
                    LoadResult peak = driver.closed(
                            server.url(),
                            scenario.operation(),
                            store,
                            scenario.requests(),
                            scenario.expect(),
                            concurrency,
                            warmup,
                            measure);
                    closed.add(peak);
                    System.err.println(peak.markdownRow());
                    if (soakMinutes > 0 && peak.requests() > 0) {
                        soakRows.addAll(soak(
                                driver,
                                server,
                                scenario,
                                store,
                                peak.throughput() * halfFraction,
                                openConnections,
                                halfWarmup,
                                soakMinutes,
                                soakWindow));
                    }
                    if (halfMeasure.isZero() || peak.requests() == 0) {
                        continue;
                    }
                    double rate = peak.throughput() * halfFraction;
                    scenario.requests()
                            .prepare((int) Math.ceil(rate * (halfWarmup.toSeconds() + halfMeasure.toSeconds()) * 1.05)
                                    + openConnections);
                    System.err.printf(
                            Locale.ROOT, "%s on %s: open loop at %,.0f/s%n", scenario.operation(), store, rate);
                    LoadResult half = driver.open(
                            openLoop(server, scenario, store, rate, openConnections, halfWarmup), halfMeasure);
                    halfLoad.add(new LoadResult[] {peak, half});
                    System.err.println(halfLoadRow(peak, half));
                }
            } finally {
                if (database != null) {
                    execute(pgAdmin, "DROP DATABASE IF EXISTS " + database + " WITH (FORCE)");
                }
                // A SQLite run leaves hundreds of megabytes of activities; the next run starts from an empty store.
                deleteTree(data);
            }
        }
        System.out.println("Closed loop (peak):\n");
        System.out.println(LoadResult.markdownHeader());
        closed.forEach(r -> System.out.println(r.markdownRow()));
        if (!halfLoad.isEmpty()) {
            System.out.printf(Locale.ROOT, "%nOpen loop at %.0f %% of the peak:%n%n", halfFraction * 100);
            System.out.println(halfLoadHeader());
            halfLoad.forEach(pair -> System.out.println(halfLoadRow(pair[0], pair[1])));
        }
        if (!soakRows.isEmpty()) {
            System.out.printf(
                    Locale.ROOT,
                    "%nSoak at %.0f %% of the peak, a row per window (ends at: seconds into the soak; RSS: the "
                            + "server's resident memory at the end of the window):%n%n",
                    halfFraction * 100);
            System.out.println(SOAK_HEADER);
            soakRows.forEach(System.out::println);
        }
        System.out.println("\nCPU per request (from /proc; 'other processes' is CPU used by anything else on the "
                + "machine, e.g. a build: such a run is noisy):\n");
        System.out.println(LoadResult.cpuHeader());
        for (LoadResult r : closed) {
            System.out.println(r.cpuRow());
            halfLoad.stream().filter(pair -> pair[0] == r).forEach(pair -> System.out.println(pair[1].cpuRow()));
        }
    }

    private static final String SOAK_HEADER =
            "| operation | store | ends at s | scheduled req/s | answered req/s | p50 ms | p99 ms | max ms "
                    + "| p99 send lag ms | errors | server µs/req | server RSS MiB |\n"
                    + "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|";

    /**
     * An open loop at {@code rate} for {@code minutes}, one row per {@code window}: a latency or a resident memory
     * that creeps up shows as a trend down the rows, and with windows of a second a periodic stall shows as its
     * period. The RSS before the first window is the first row's baseline.
     */
    private static List<String> soak(
            LoadDriver driver,
            ServerProcess server,
            Scenario scenario,
            String store,
            double rate,
            int connections,
            Duration warmup,
            int minutes,
            Duration window)
            throws InterruptedException {
        scenario.requests().prepare((int) Math.ceil(rate * (warmup.toSeconds() + minutes * 60L) * 1.05) + connections);
        System.err.printf(
                Locale.ROOT, "%s on %s: soak at %,.0f/s for %d min%n", scenario.operation(), store, rate, minutes);
        List<Double> resident = new ArrayList<>();
        List<LoadResult> windows = driver.soak(
                openLoop(server, scenario, store, rate, connections, warmup),
                window,
                (int) (Duration.ofMinutes(minutes).toSeconds() / window.toSeconds()),
                () -> resident.add(server.residentMebibytes()));
        List<String> rows = new ArrayList<>();
        rows.add(String.format(
                Locale.ROOT,
                "| %s | %s | start | | | | | | | | | %.0f |",
                scenario.operation(),
                store,
                resident.getFirst()));
        for (int i = 0; i < windows.size(); i++) {
            LoadResult w = windows.get(i);
            rows.add(String.format(
                    Locale.ROOT,
                    "| %s | %s | %d | %,.0f | %,.0f | %.2f | %.2f | %.2f | %.2f | %d | %.0f | %.0f |",
                    w.operation(),
                    store,
                    (i + 1) * window.toSeconds(),
                    w.targetRate(),
                    w.throughput(),
                    w.percentileMillis(50),
                    w.percentileMillis(99),
                    w.percentileMillis(100),
                    LoadResult.percentileMillis(w.sortedDispatchLagNanos(), 99),
                    w.errors(),
                    CpuMeter.Usage.microsPerRequest(w.cpu().server(), w.throughput()),
                    resident.get(i + 1)));
            System.err.println(rows.getLast());
        }
        return rows;
    }

    private static LoadDriver.OpenLoop openLoop(
            ServerProcess server, Scenario scenario, String store, double rate, int connections, Duration warmup) {
        return new LoadDriver.OpenLoop(
                server.url(),
                scenario.operation(),
                store,
                scenario.requests(),
                scenario.expect(),
                rate,
                connections,
                warmup);
    }

    /** Deletes a directory the benchmark created, with everything in it, deepest entries first. */
    private static void deleteTree(Path directory) throws IOException {
        try (Stream<Path> entries = Files.walk(directory)) {
            for (Path entry : entries.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(entry);
            }
        }
    }

    private static String halfLoadHeader() {
        return "| operation | store | peak req/s | scheduled req/s | answered req/s | p50 ms | p90 ms | p99 ms "
                + "| p99.9 ms | max ms | p99 send lag ms | errors |\n"
                + "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|";
    }

    private static String halfLoadRow(LoadResult peak, LoadResult half) {
        return String.format(
                Locale.ROOT,
                "| %s | %s | %,.0f | %,.0f | %,.0f | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %d |",
                half.operation(),
                half.store(),
                peak.throughput(),
                half.targetRate(),
                half.throughput(),
                half.percentileMillis(50),
                half.percentileMillis(90),
                half.percentileMillis(99),
                half.percentileMillis(99.9),
                half.percentileMillis(100),
                LoadResult.percentileMillis(half.sortedDispatchLagNanos(), 99),
                half.errors());
    }

    private static Scenario scenario(String name, ServerProcess server, ApiKeyStamper root, int concurrency) {
        URI base = URI.create(server.url());
        String org = server.organizationId();
        return switch (name) {
            case "whoami" ->
                new Scenario(
                        "whoami",
                        RequestSource.constant(KeepAliveConnection.serialise(
                                base,
                                prepare(root, "/public/v1/query/whoami", "{\"organizationId\":\"" + org + "\"}"))),
                        null);
            case "create_users" ->
                new Scenario(
                        "create_users", RequestSource.unique(createUsersBodies(root, base, List.of(org))), COMPLETED);
            // The same load spread over sub-organizations: creations within one organization are serialised (its
            // user count is reserved under a row lock), creations in different ones are not.
            case "create_users_orgs" ->
                new Scenario(
                        "create_users, " + concurrency + " orgs",
                        RequestSource.unique(
                                createUsersBodies(root, base, subOrganizations(server, root, concurrency))),
                        COMPLETED);
            case "sign_raw_payload" -> signRawPayload(server, root);
            case "list_wallet_accounts" -> listWalletAccounts(server, root);
            default -> throw new IllegalArgumentException(name);
        };
    }

    /**
     * An Ethereum account to sign with, and bodies each with its own payload: 16 random bytes of this run, then the
     * request's index, so no two bodies (in this run or an earlier one against the same database) are the same.
     */
    private static Scenario signRawPayload(ServerProcess server, ApiKeyStamper root) {
        KeyhavenClient client = new KeyhavenClient(server.url(), root, server.organizationId());
        Activity wallet = client.createWallet(
                "bench-sign-" + UUID.randomUUID(), List.of(Requests.WalletAccountParams.ethereum(0)));
        String address = wallet.result().path("addresses").get(0).asString();
        Activity check = client.signRawPayload(
                address, "00".repeat(32), "PAYLOAD_ENCODING_HEXADECIMAL", "HASH_FUNCTION_KECCAK256");
        if (!check.isCompleted() || check.result().path("r").asString().isEmpty()) {
            throw new IllegalStateException("sign_raw_payload did not complete: " + check.raw());
        }
        byte[] runPrefix = new byte[16];
        new SecureRandom().nextBytes(runPrefix);
        String prefix = HexFormat.of().formatHex(runPrefix);
        URI base = URI.create(server.url());
        String org = server.organizationId();
        IntFunction<byte[]> make = i -> KeepAliveConnection.serialise(
                base,
                prepare(
                        root,
                        "/public/v1/submit/sign_raw_payload",
                        "{\"type\":\"ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2\",\"timestampMs\":\""
                                + System.currentTimeMillis()
                                + "\",\"organizationId\":\"" + org + "\",\"parameters\":{\"signWith\":\"" + address
                                + "\",\"payload\":\"" + prefix + String.format(Locale.ROOT, "%032x", i)
                                + "\",\"encoding\":\"PAYLOAD_ENCODING_HEXADECIMAL\","
                                + "\"hashFunction\":\"HASH_FUNCTION_KECCAK256\"}}"));
        return new Scenario("sign_raw_payload", RequestSource.unique(make), COMPLETED);
    }

    /** A wallet of 100 Ethereum accounts, listed a full page at a time. */
    private static Scenario listWalletAccounts(ServerProcess server, ApiKeyStamper root) {
        KeyhavenClient client = new KeyhavenClient(server.url(), root, server.organizationId());
        Activity wallet = client.createWallet(
                "bench-list-" + UUID.randomUUID(),
                IntStream.range(0, LIST_ACCOUNTS)
                        .mapToObj(Requests.WalletAccountParams::ethereum)
                        .toList());
        String walletId = wallet.result().path("walletId").asString();
        Map<String, Object> query = Map.of("walletId", walletId, "paginationOptions", Map.of("limit", "100"));
        JsonNode accounts = client.query("list_wallet_accounts", query).path("accounts");
        if (accounts.size() != LIST_ACCOUNTS) {
            throw new IllegalStateException("list_wallet_accounts returned " + accounts.size() + " accounts");
        }
        String body = "{\"organizationId\":\"" + server.organizationId() + "\",\"walletId\":\"" + walletId
                + "\",\"paginationOptions\":{\"limit\":\"100\"}}";
        return new Scenario(
                "list_wallet_accounts",
                RequestSource.constant(KeepAliveConnection.serialise(
                        URI.create(server.url()), prepare(root, "/public/v1/query/list_wallet_accounts", body))),
                null);
    }

    /** Bodies for create_users: each creates one email-only user (so no keys are generated). */
    private static IntFunction<byte[]> createUsersBodies(Stamper root, URI base, List<String> organizationIds) {
        return i -> KeepAliveConnection.serialise(
                base,
                prepare(
                        root,
                        "/public/v1/submit/create_users",
                        "{\"type\":\"ACTIVITY_TYPE_CREATE_USERS_V4\",\"timestampMs\":\"" + System.currentTimeMillis()
                                + "\",\"organizationId\":\"" + organizationIds.get(i % organizationIds.size())
                                + "\",\"parameters\":{\"users\":[{\"userName\":\"bench-" + i
                                + "\",\"userEmail\":\"bench-" + i
                                + "@example.com\",\"apiKeys\":[],\"authenticators\":[],\"oauthProviders\":[],"
                                + "\"userTags\":[]}]}}"));
    }

    /** Sub-organizations whose root user holds the same key as the root organization's. */
    private static List<String> subOrganizations(ServerProcess server, ApiKeyStamper root, int count) {
        KeyhavenClient client = new KeyhavenClient(server.url(), root, server.organizationId());
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            ids.add(client.createSubOrganization(
                            "bench-" + i,
                            List.of(Requests.RootUserParams.withApiKeys(
                                    "root", List.of(Requests.ApiKeyParams.of("root", root)))),
                            1)
                    .result()
                    .path("subOrganizationId")
                    .asString());
        }
        return ids;
    }

    private static PreparedRequest prepare(Stamper stamper, String path, String body) {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        Stamper.Stamp stamp = stamper.stamp(bytes);
        return new PreparedRequest(path, bytes, stamp.headerName(), stamp.headerValue());
    }

    private static void execute(String url, String sql) throws SQLException {
        try (Connection connection = DriverManager.getConnection(url);
                Statement statement = connection.createStatement()) {
            statement.execute(sql);
        }
    }

    private static Map<String, String> options(String[] args) throws IOException {
        Set<String> known = Set.of(
                "jar",
                "stores",
                "scenarios",
                "concurrency",
                "warmup-seconds",
                "seconds",
                "half-load-fraction",
                "half-load-warmup-seconds",
                "half-load-seconds",
                "open-loop-connections",
                "soak-minutes",
                "soak-window-seconds",
                "prepare-rate",
                "pg-admin-url");
        Map<String, String> options = new HashMap<>();
        for (int i = 0; i < args.length; i += 2) {
            if (!args[i].startsWith("--") || i + 1 >= args.length) {
                throw new IOException("expected --option value pairs, got " + args[i]);
            }
            String name = args[i].substring(2);
            if (!known.contains(name)) {
                throw new IOException("unknown option --" + name + "; known: " + known);
            }
            options.put(name, args[i + 1]);
        }
        return options;
    }
}
