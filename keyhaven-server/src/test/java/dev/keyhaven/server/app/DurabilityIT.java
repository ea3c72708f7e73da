package dev.keyhaven.server.app;

import static org.assertj.core.api.Assertions.assertThat;

import dev.keyhaven.client.ApiKeyStamper;
import dev.keyhaven.client.KeyhavenApiException;
import dev.keyhaven.client.KeyhavenClient;
import dev.keyhaven.client.Stamper;
import dev.keyhaven.server.app.ActivityLoad.Acknowledged;
import dev.keyhaven.server.app.ActivityLoad.Unanswered;
import dev.keyhaven.server.testing.KeyhavenProcess;
import dev.keyhaven.server.testing.RawHttpConnection;
import dev.keyhaven.server.testing.RawHttpConnection.Outcome;
import dev.keyhaven.server.testing.StoreKind;
import java.io.IOException;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;
import tools.jackson.databind.JsonNode;

/**
 * What a 200 is worth. The real jar serves create_users activities to concurrent clients; it is then killed
 * (SIGKILL) or asked to stop (SIGTERM) mid-load, restarted on the same data, and every acknowledged activity must be
 * there with its effects, with nothing half-written: each stored activity is COMPLETED with all of its users, every
 * user belongs to exactly one such activity, and an activity nobody saw acknowledged exists only for a request whose
 * answer never arrived.
 *
 * <p>SIGKILL leaves the operating system's page cache intact, so this proves that no activity is acknowledged before
 * its transaction commits and that nothing is lost or torn on restart. Surviving power loss additionally needs every
 * commit fsynced, which EmbeddedStoreIT pins for SQLite and PostgreSQL does by default.
 */
@ParameterizedClass
@EnumSource(StoreKind.class)
class DurabilityIT {
    private static final Duration EXIT_WAIT = Duration.ofSeconds(120);
    private static final int GRACE_SECONDS = 30;

    @Parameter
    StoreKind store;

    @TempDir
    Path dataDirectory;

    /** The PostgreSQL database of this test; SQLite uses the default, inside the data directory. */
    private String databaseUrl;

    @BeforeEach
    void createDatabase() {
        if (store == StoreKind.POSTGRES) {
            databaseUrl = store.freshDatabase(dataDirectory);
        }
    }

    @AfterEach
    void dropDatabase() {
        if (databaseUrl != null) {
            store.drop(databaseUrl);
        }
    }

    @Test
    void everyAcknowledgedActivitySurvivesKill9MidLoad() {
        String organizationId;
        ActivityLoad load;
        long killedAt;
        int exitStatus;
        try (KeyhavenProcess server = KeyhavenProcess.serve(serveArguments(), Map.of())) {
            organizationId = server.organizationId();
            ActivityLoad running =
                    ActivityLoad.start("127.0.0.1", server.port(), rootStamper(), organizationId, "kill", 16);
            load = running;
            server.explainingFailures(() -> {
                running.awaitAcknowledged(300);
                running.awaitInFlight();
            });
            killedAt = System.nanoTime();
            exitStatus = server.kill();
            load.stop();
        }

        assertThat(exitStatus)
                .as("exit status of a JVM ended by SIGKILL (128 + 9): destroyForcibly() sent "
                        + "SIGKILL, so no shutdown hook or drain ran")
                .isEqualTo(137);
        assertThat(load.unexpected())
                .as("answers other than 200 COMPLETED before the kill")
                .isEmpty();
        List<Unanswered> inFlightAtKill = load.unanswered().stream()
                .filter(u -> u.startedNanos() < killedAt)
                .toList();
        assertThat(inFlightAtKill)
                .as("requests sent before the kill and never answered")
                .isNotEmpty();

        try (KeyhavenProcess restarted = KeyhavenProcess.serve(serveArguments(), Map.of())) {
            assertThat(restarted.organizationId()).isEqualTo(organizationId);
            KeyhavenClient client = new KeyhavenClient(restarted.baseUrl(), rootStamper(), organizationId);
            int found = assertAllFoundWithTheirEffects(client, load.acknowledged());
            Stored stored = Stored.read(client);
            List<JsonNode> unacknowledged =
                    assertNothingHalfWritten(stored, client.whoami().userId(), load.acknowledged(), load.unanswered());
            report(
                    "kill -9",
                    "acknowledged=" + load.acknowledged().size() + ", in flight at kill="
                            + inFlightAtKill.size() + " (of which committed anyway: " + unacknowledged.size()
                            + "), sent after kill=" + (load.unanswered().size() - inFlightAtKill.size())
                            + ", found after restart=" + found + ", activities stored="
                            + stored.activities().size()
                            + ", users stored=" + (stored.userNames().size() - 1));
        }
    }

    @Test
    void sigtermLetsInFlightRequestsFinishRefusesTheRestAndExitsZero() {
        String organizationId;
        ActivityLoad load;
        Acknowledged slowRequest;
        long terminatedAt;
        int exitStatus;
        String log;
        try (KeyhavenProcess server = KeyhavenProcess.serve(
                serveArguments("--shutdown-grace-seconds", Integer.toString(GRACE_SECONDS)), Map.of())) {
            organizationId = server.organizationId();
            ApiKeyStamper root = rootStamper();
            KeyhavenClient client = new KeyhavenClient(server.baseUrl(), root, organizationId);
            ActivityLoad running = ActivityLoad.start("127.0.0.1", server.port(), root, organizationId, "term", 8);
            load = running;
            server.explainingFailures(() -> running.awaitAcknowledged(150));
            try (RawHttpConnection connection = new RawHttpConnection("127.0.0.1", server.port())) {
                // This request's handler is running (it asked for the body) when SIGTERM arrives, and the body only
                // follows once the server has stopped listening: it is in flight throughout the shutdown.
                List<String> names = List.of("term-slow-a", "term-slow-b");
                byte[] body = ActivityLoad.createUsersBody(client, names);
                Stamper.Stamp stamp = root.stamp(body);
                connection.startExpectingContinue(
                        ActivityLoad.PATH, body.length, Map.of(stamp.headerName(), stamp.headerValue()));
                terminatedAt = System.nanoTime();
                server.terminate();
                awaitListenerClosed(server.port());
                Outcome outcome = connection.sendBodyAndRead(body);
                slowRequest = ActivityLoad.acknowledgement(client, outcome, names)
                        .orElseThrow(() ->
                                new AssertionError("the request in flight at SIGTERM was not completed: " + outcome));
            }
            exitStatus = server.awaitExit(EXIT_WAIT);
            log = server.stderr();
            load.stop();
        }

        assertThat(exitStatus).as("exit status after SIGTERM").isZero();
        assertThat(log)
                .as("server log: every request finished within the grace period")
                .contains("listener stopped with no request in flight")
                .doesNotContain("grace period ran out");
        assertThat(load.unexpected())
                .as("answers other than 200 COMPLETED or 503")
                .isEmpty();
        assertThat(load.unanswered()).as("requests whose response was cut off").noneMatch(Unanswered::truncated);

        List<Acknowledged> acknowledged = new ArrayList<>(load.acknowledged());
        acknowledged.add(slowRequest);
        long finishedAfterSigterm = acknowledged.stream()
                .filter(a -> a.answeredNanos() > terminatedAt)
                .count();
        try (KeyhavenProcess restarted = KeyhavenProcess.serve(serveArguments(), Map.of())) {
            assertThat(restarted.organizationId()).isEqualTo(organizationId);
            KeyhavenClient client = new KeyhavenClient(restarted.baseUrl(), rootStamper(), organizationId);
            int found = assertAllFoundWithTheirEffects(client, acknowledged);
            Stored stored = Stored.read(client);
            List<JsonNode> unacknowledged =
                    assertNothingHalfWritten(stored, client.whoami().userId(), acknowledged, load.unanswered());
            Set<String> refusedNames =
                    load.refused().stream().flatMap(List::stream).collect(Collectors.toSet());
            assertThat(stored.userNames().values().stream()
                            .filter(refusedNames::contains)
                            .toList())
                    .as("users of requests answered 503")
                    .isEmpty();
            report(
                    "SIGTERM",
                    "acknowledged=" + acknowledged.size() + " (answered after SIGTERM: "
                            + finishedAfterSigterm
                            + ", including the request held open across the shutdown), refused with "
                            + "503=" + load.refused().size() + ", connection errors="
                            + load.unanswered().size()
                            + " (committed anyway: " + unacknowledged.size() + "), exit status=" + exitStatus
                            + ", found after restart=" + found);
        }
    }

    private List<String> serveArguments(String... more) {
        List<String> arguments = new ArrayList<>(List.of(
                "--data-dir", dataDirectory.toString(), "--port", "0", "--max-users-per-organization", "1000000"));
        if (databaseUrl != null) {
            arguments.addAll(List.of("--db-url", databaseUrl));
        }
        arguments.addAll(List.of(more));
        return arguments;
    }

    /** The root key pair serve generated into the empty data directory. */
    private ApiKeyStamper rootStamper() {
        try {
            return ApiKeyStamper.fromPrivateKey(
                    ApiKeyStamper.Curve.P256, Files.readString(dataDirectory.resolve("root-api-key.private")));
        } catch (IOException e) {
            throw new AssertionError("serve did not leave the root key in the data directory", e);
        }
    }

    /**
     * Looks every acknowledged activity up with get_activity: each must be COMPLETED, have created the same users, and
     * those users must exist with the names asked for.
     *
     * @return how many were found
     */
    private static int assertAllFoundWithTheirEffects(KeyhavenClient client, List<Acknowledged> acknowledged) {
        Map<Acknowledged, String> problems = new LinkedHashMap<>();
        ExecutorService executor =
                Executors.newFixedThreadPool(8, Thread.ofVirtual().factory());
        try {
            Map<Acknowledged, Future<String>> checks = new LinkedHashMap<>();
            for (Acknowledged ack : acknowledged) {
                checks.put(ack, executor.submit(() -> problemWith(client, ack)));
            }
            for (Map.Entry<Acknowledged, Future<String>> check : checks.entrySet()) {
                String problem = check.getValue().get();
                if (problem != null) {
                    problems.put(check.getKey(), problem);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        } catch (ExecutionException e) {
            throw new IllegalStateException(e.getCause());
        } finally {
            executor.shutdownNow();
        }
        assertThat(problems)
                .as("acknowledged activities missing or incomplete after the restart")
                .isEmpty();
        return acknowledged.size() - problems.size();
    }

    /** What is wrong with an acknowledged activity after the restart, or null. */
    private static String problemWith(KeyhavenClient client, Acknowledged ack) {
        JsonNode activity;
        try {
            activity = client.getActivity(ack.activityId());
        } catch (KeyhavenApiException e) {
            return "get_activity failed: " + e.httpStatus() + " " + e.getMessage();
        }
        if (!"ACTIVITY_STATUS_COMPLETED".equals(activity.path("status").asString())) {
            return "status " + activity.path("status").asString();
        }
        if (!userIds(activity).equals(ack.userIds())) {
            return "created users " + userIds(activity) + ", acknowledged " + ack.userIds();
        }
        for (int i = 0; i < ack.userIds().size(); i++) {
            try {
                String name =
                        client.getUser(ack.userIds().get(i)).path("userName").asString();
                if (!name.equals(ack.userNames().get(i))) {
                    return "user " + ack.userIds().get(i) + " is named " + name;
                }
            } catch (KeyhavenApiException e) {
                return "user " + ack.userIds().get(i) + ": " + e.httpStatus() + " " + e.getMessage();
            }
        }
        return null;
    }

    /**
     * Checks the whole store for torn writes: every activity is a COMPLETED create_users whose users all exist under
     * the names its intent asked for, every user but root was created by exactly one activity, and an activity that
     * was not acknowledged belongs to a request that never got its answer.
     *
     * @return the activities that committed without their acknowledgement reaching the client
     */
    private static List<JsonNode> assertNothingHalfWritten(
            Stored stored, String rootUserId, List<Acknowledged> acknowledged, List<Unanswered> unanswered) {
        Map<String, Integer> creatorsPerUser = new HashMap<>();
        List<String> problems = new ArrayList<>();
        for (JsonNode activity : stored.activities()) {
            String id = activity.path("id").asString();
            if (!"ACTIVITY_TYPE_CREATE_USERS_V4".equals(activity.path("type").asString())
                    || !"ACTIVITY_STATUS_COMPLETED"
                            .equals(activity.path("status").asString())) {
                problems.add(id + " is " + activity.path("type").asString() + " "
                        + activity.path("status").asString());
                continue;
            }
            List<String> userIds = userIds(activity);
            List<String> names = intendedNames(activity);
            List<String> storedNames = userIds.stream()
                    .map(u -> stored.userNames().getOrDefault(u, "(missing)"))
                    .toList();
            if (!storedNames.equals(names)) {
                problems.add(id + " asked for users " + names + " but " + userIds + " are " + storedNames);
            }
            userIds.forEach(u -> creatorsPerUser.merge(u, 1, Integer::sum));
        }
        for (String userId : stored.userNames().keySet()) {
            int creators = creatorsPerUser.getOrDefault(userId, 0);
            if (!userId.equals(rootUserId) && creators != 1) {
                problems.add("user " + userId + " (" + stored.userNames().get(userId) + ") was created by " + creators
                        + " activities");
            }
        }
        assertThat(problems).as("half-written or orphaned records").isEmpty();

        Set<String> acknowledgedIds =
                acknowledged.stream().map(Acknowledged::activityId).collect(Collectors.toSet());
        Set<List<String>> unansweredNames =
                unanswered.stream().map(Unanswered::userNames).collect(Collectors.toCollection(HashSet::new));
        List<JsonNode> unacknowledged = stored.activities().stream()
                .filter(a -> !acknowledgedIds.contains(a.path("id").asString()))
                .toList();
        assertThat(unacknowledged)
                .as("stored activities that were not acknowledged must be requests that got no " + "answer")
                .allMatch(a -> unansweredNames.contains(intendedNames(a)));
        return unacknowledged;
    }

    private static List<String> userIds(JsonNode activity) {
        List<String> ids = new ArrayList<>();
        activity.path("result").path("createUsersResult").path("userIds").forEach(id -> ids.add(id.asString()));
        return ids;
    }

    private static List<String> intendedNames(JsonNode activity) {
        List<String> names = new ArrayList<>();
        activity.path("intent")
                .path("createUsersIntentV4")
                .path("users")
                .forEach(user -> names.add(user.path("userName").asString()));
        return names;
    }

    /** Waits until the port refuses connections: the server has begun to shut down. */
    private static void awaitListenerClosed(int port) {
        long deadline = System.nanoTime() + EXIT_WAIT.toNanos();
        while (System.nanoTime() < deadline) {
            try (Socket socket = new Socket()) {
                socket.connect(new InetSocketAddress("127.0.0.1", port), 5_000);
            } catch (ConnectException refused) {
                return;
            } catch (IOException e) {
                throw new IllegalStateException("unexpected failure probing port " + port, e);
            }
            try {
                Thread.sleep(10);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted", e);
            }
        }
        throw new IllegalStateException("port " + port + " still accepts connections " + EXIT_WAIT + " after SIGTERM");
    }

    private void report(String scenario, String counts) {
        System.out.println("[DurabilityIT " + store + "] " + scenario + ": " + counts);
    }

    /** Everything in the organization after the restart: its users and all its activities. */
    private record Stored(Map<String, String> userNames, List<JsonNode> activities) {

        static Stored read(KeyhavenClient client) {
            Map<String, String> names = new LinkedHashMap<>();
            client.listUsers()
                    .forEach(u -> names.put(
                            u.path("userId").asString(), u.path("userName").asString()));
            List<JsonNode> activities = new ArrayList<>();
            String after = null;
            while (true) {
                List<JsonNode> page = client.listActivities(null, null, "100", after, null);
                activities.addAll(page);
                if (page.size() < 100) {
                    return new Stored(names, activities);
                }
                after = page.getLast().path("id").asString();
            }
        }
    }
}
