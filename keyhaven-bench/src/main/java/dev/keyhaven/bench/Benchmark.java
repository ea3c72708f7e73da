package dev.keyhaven.bench;

import dev.keyhaven.client.ApiKeyStamper;
import dev.keyhaven.client.KeyhavenClient;
import dev.keyhaven.client.Requests;
import dev.keyhaven.client.Stamper;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.IntFunction;
import java.util.stream.IntStream;

/**
 * Measures whoami and create_users end to end over HTTP against the real jar, on the embedded store and on
 * PostgreSQL, and prints a Markdown table.
 *
 * <pre>
 * java -jar keyhaven-bench/target/keyhaven-bench.jar [--jar keyhaven-server/target/keyhaven.jar]
 *     [--stores sqlite,postgres] [--concurrency 16] [--warmup-seconds 10] [--seconds 20]
 *     [--pg-admin-url jdbc:postgresql://127.0.0.1:5432/postgres?user=postgres]
 * </pre>
 */
public final class Benchmark {
    private Benchmark() {
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> options = options(args);
        Path jar = Path.of(options.getOrDefault("jar", "keyhaven-server/target/keyhaven.jar"));
        List<String> stores = List.of(options.getOrDefault("stores", "sqlite,postgres").split(","));
        int concurrency = Integer.parseInt(options.getOrDefault("concurrency", "16"));
        Duration warmup = Duration.ofSeconds(Long.parseLong(options.getOrDefault("warmup-seconds", "10")));
        Duration measure = Duration.ofSeconds(Long.parseLong(options.getOrDefault("seconds", "20")));
        String pgAdmin = options.getOrDefault("pg-admin-url", "jdbc:postgresql://127.0.0.1:5432/postgres?user=postgres");

        List<LoadResult> results = new ArrayList<>();
        for (String store : stores) {
            Path data = Files.createTempDirectory("keyhaven-bench");
            List<String> extra = new ArrayList<>(List.of("--max-users-per-organization", "100000000"));
            String database = null;
            if (store.equals("postgres")) {
                database = "keyhaven_bench_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
                execute(pgAdmin, "CREATE DATABASE " + database);
                extra.addAll(List.of("--db-url", pgAdmin.replace("/postgres?", "/" + database + "?")));
            }
            try (ServerProcess server = ServerProcess.start(jar, data, extra);
                    ApiKeyStamper root = ApiKeyStamper.fromPrivateKey(ApiKeyStamper.Curve.P256,
                            Files.readString(data.resolve("root-api-key.private")).trim())) {
                LoadDriver driver = new LoadDriver();
                URI base = URI.create(server.url());
                byte[] whoami = KeepAliveConnection.serialise(base, prepare(root, "/public/v1/query/whoami",
                        "{\"organizationId\":\"" + server.organizationId() + "\"}"));
                results.add(driver.run(server.url(), "whoami", store, i -> whoami, concurrency, warmup, measure));
                IntFunction<byte[]> createUsers = createUsersBodies(root, base, List.of(server.organizationId()),
                        150_000);
                results.add(driver.run(server.url(), "create_users", store, createUsers, concurrency, warmup,
                        measure));
                // The same load spread over sub-organizations: creations within one organization are serialised
                // (its user count is reserved under a row lock), creations in different ones are not.
                List<String> subOrganizations = subOrganizations(server, root, concurrency);
                IntFunction<byte[]> spread = createUsersBodies(root, base, subOrganizations, 150_000);
                results.add(driver.run(server.url(), "create_users, " + concurrency + " orgs", store, spread,
                        concurrency, warmup, measure));
            } finally {
                if (database != null) {
                    execute(pgAdmin, "DROP DATABASE IF EXISTS " + database + " WITH (FORCE)");
                }
            }
        }
        System.out.println(LoadResult.markdownHeader());
        results.forEach(r -> System.out.println(r.markdownRow()));
    }

    /**
     * Bodies for create_users, stamped ahead of time (each creates one email-only user, so no keys are generated).
     * Past the prepared ones, bodies are made and stamped on demand.
     */
    private static IntFunction<byte[]> createUsersBodies(Stamper root, URI base, List<String> organizationIds,
            int count) {
        IntFunction<PreparedRequest> make = i -> prepare(root, "/public/v1/submit/create_users",
                "{\"type\":\"ACTIVITY_TYPE_CREATE_USERS_V4\",\"timestampMs\":\"" + System.currentTimeMillis()
                        + "\",\"organizationId\":\"" + organizationIds.get(i % organizationIds.size()) + "\",\"parameters\":{\"users\":[{\"userName\":"
                        + "\"bench-" + i + "\",\"userEmail\":\"bench-" + i + "@example.com\",\"apiKeys\":[],"
                        + "\"authenticators\":[],\"oauthProviders\":[],\"userTags\":[]}]}}");
        byte[][] prepared = IntStream.range(0, count).parallel()
                .mapToObj(i -> KeepAliveConnection.serialise(base, make.apply(i))).toArray(byte[][]::new);
        return i -> i < prepared.length ? prepared[i] : KeepAliveConnection.serialise(base, make.apply(i));
    }

    /** Sub-organizations whose root user holds the same key as the root organization's. */
    private static List<String> subOrganizations(ServerProcess server, ApiKeyStamper root, int count) {
        KeyhavenClient client = new KeyhavenClient(server.url(), root, server.organizationId());
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            ids.add(client.createSubOrganization("bench-" + i, List.of(Requests.RootUserParams.withApiKeys("root",
                    List.of(Requests.ApiKeyParams.of("root", root)))), 1).result().path("subOrganizationId")
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
        try (Connection connection = DriverManager.getConnection(url); Statement statement = connection.createStatement()) {
            statement.execute(sql);
        }
    }

    private static Map<String, String> options(String[] args) throws IOException {
        Map<String, String> options = new HashMap<>();
        for (int i = 0; i + 1 < args.length; i += 2) {
            if (!args[i].startsWith("--")) {
                throw new IOException("expected --option value pairs, got " + args[i]);
            }
            options.put(args[i].substring(2), args[i + 1]);
        }
        return options;
    }
}
