package dev.keyhaven.server.app;

import dev.keyhaven.client.KeyhavenClient;
import dev.keyhaven.client.Requests.UserParams;
import dev.keyhaven.client.Stamper;
import dev.keyhaven.server.testing.RawHttpConnection;
import dev.keyhaven.server.testing.RawHttpConnection.Outcome;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import tools.jackson.databind.JsonNode;

/**
 * Concurrent {@code create_users} submissions, two users per activity, from virtual threads that each keep one
 * connection alive, recording what became of every request: acknowledged (200 with a COMPLETED activity), refused
 * with 503, unanswered (connection refused or closed before any response byte), truncated, or anything else. A worker
 * stops at its first unanswered or truncated request: the server is gone or going.
 */
final class ActivityLoad {
    static final String PATH = "/public/v1/submit/create_users";
    private static final Duration WAIT = Duration.ofSeconds(120);

    /** A request answered 200 with a COMPLETED activity that created these users. */
    record Acknowledged(String activityId, List<String> userIds, List<String> userNames, long answeredNanos) {}

    /** A request that got no complete response. */
    record Unanswered(List<String> userNames, long startedNanos, Outcome outcome) {
        boolean truncated() {
            return outcome instanceof Outcome.Truncated;
        }
    }

    private final KeyhavenClient client;
    private final Stamper stamper;
    private final String host;
    private final int port;
    private final String runName;
    private final ConcurrentLinkedQueue<Acknowledged> acknowledged = new ConcurrentLinkedQueue<>();
    private final ConcurrentLinkedQueue<Unanswered> unanswered = new ConcurrentLinkedQueue<>();
    private final ConcurrentLinkedQueue<List<String>> refused = new ConcurrentLinkedQueue<>();
    private final ConcurrentLinkedQueue<String> unexpected = new ConcurrentLinkedQueue<>();
    private final AtomicInteger inFlight = new AtomicInteger();
    private final List<Thread> workers = new ArrayList<>();
    private volatile boolean stopping;

    private ActivityLoad(KeyhavenClient client, Stamper stamper, String host, int port, String runName) {
        this.client = client;
        this.stamper = stamper;
        this.host = host;
        this.port = port;
        this.runName = runName;
    }

    /** Starts {@code workerCount} workers submitting as {@code stamper} to the organization. */
    static ActivityLoad start(
            String host, int port, Stamper stamper, String organizationId, String runName, int workerCount) {
        ActivityLoad load = new ActivityLoad(
                new KeyhavenClient("http://" + host + ":" + port, stamper, organizationId),
                stamper,
                host,
                port,
                runName);
        for (int w = 0; w < workerCount; w++) {
            int worker = w;
            load.workers.add(Thread.ofVirtual().name("load-" + w).start(() -> load.work(worker)));
        }
        return load;
    }

    /** The body of a create_users activity creating a user for each name, with an email as its credential. */
    static byte[] createUsersBody(KeyhavenClient client, List<String> userNames) {
        return client.submitBody(
                "ACTIVITY_TYPE_CREATE_USERS_V4",
                Map.of(
                        "users",
                        userNames.stream()
                                .map(name -> new UserParams(
                                        name, name + "@example.com", null, List.of(), List.of(), List.of(), List.of()))
                                .toList()));
    }

    /** The acknowledgement in {@code outcome}, if it is a 200 with a COMPLETED activity. */
    static Optional<Acknowledged> acknowledgement(KeyhavenClient client, Outcome outcome, List<String> userNames) {
        if (!(outcome instanceof Outcome.Response response) || response.status() != 200) {
            return Optional.empty();
        }
        JsonNode activity = client.json().readTree(response.body()).path("activity");
        if (!"ACTIVITY_STATUS_COMPLETED".equals(activity.path("status").asString())) {
            return Optional.empty();
        }
        List<String> userIds = new ArrayList<>();
        activity.path("result").path("createUsersResult").path("userIds").forEach(id -> userIds.add(id.asString()));
        return Optional.of(
                new Acknowledged(activity.path("id").asString(), List.copyOf(userIds), userNames, System.nanoTime()));
    }

    private void work(int worker) {
        try (RawHttpConnection connection = new RawHttpConnection(host, port)) {
            for (int sequence = 0; !stopping; sequence++) {
                String prefix = runName + "-w" + worker + "-" + sequence;
                List<String> names = List.of(prefix + "-a", prefix + "-b");
                byte[] body = createUsersBody(client, names);
                Stamper.Stamp stamp = stamper.stamp(body);
                long started = System.nanoTime();
                inFlight.incrementAndGet();
                Outcome outcome;
                try {
                    outcome = connection.post(PATH, body, Map.of(stamp.headerName(), stamp.headerValue()));
                } finally {
                    inFlight.decrementAndGet();
                }
                if (!record(outcome, names, started)) {
                    return;
                }
            }
        } catch (RuntimeException e) {
            unexpected.add("worker " + worker + " failed: " + e);
        }
    }

    /** Records what became of one request; false when the worker should stop. */
    private boolean record(Outcome outcome, List<String> names, long started) {
        switch (outcome) {
            case Outcome.Response response
            when response.status() == 200 -> {
                Optional<Acknowledged> ack = acknowledgement(client, response, names);
                if (ack.isEmpty()) {
                    unexpected.add("200 without a COMPLETED activity: " + response.bodyText());
                    return false;
                }
                acknowledged.add(ack.get());
                return true;
            }
            case Outcome.Response response
            when response.status() == 503 -> {
                refused.add(names);
                return true;
            }
            case Outcome.Response response -> {
                unexpected.add(response.status() + " " + response.bodyText());
                return false;
            }
            case Outcome.NoResponse noResponse -> {
                unanswered.add(new Unanswered(names, started, noResponse));
                return false;
            }
            case Outcome.Truncated truncated -> {
                unanswered.add(new Unanswered(names, started, truncated));
                return false;
            }
        }
    }

    /** Waits until {@code count} requests were acknowledged. */
    void awaitAcknowledged(int count) {
        awaitUntil(() -> acknowledged.size() >= count, "acknowledged requests to reach " + count);
    }

    /** Waits until at least one request is on its way to the server or back. */
    void awaitInFlight() {
        awaitUntil(() -> inFlight.get() > 0, "a request in flight");
    }

    private void awaitUntil(BooleanSupplier condition, String what) {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (!condition.getAsBoolean()) {
            if (workers.stream().noneMatch(Thread::isAlive) || !unexpected.isEmpty() || System.nanoTime() > deadline) {
                throw new IllegalStateException("gave up waiting for " + what + "; acknowledged " + acknowledged.size()
                        + ", unanswered " + unanswered.size() + ", unexpected " + unexpected);
            }
            try {
                Thread.sleep(1);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted", e);
            }
        }
    }

    /** Stops the workers after their current request and waits for them. */
    void stop() {
        stopping = true;
        for (Thread worker : workers) {
            try {
                if (!worker.join(WAIT)) {
                    throw new IllegalStateException(worker.getName() + " did not stop within " + WAIT);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted", e);
            }
        }
    }

    List<Acknowledged> acknowledged() {
        return List.copyOf(acknowledged);
    }

    List<Unanswered> unanswered() {
        return List.copyOf(unanswered);
    }

    /** The user names of the requests answered 503. */
    List<List<String>> refused() {
        return List.copyOf(refused);
    }

    /** Every response that was neither a 200 with a COMPLETED activity nor a 503, and any worker failure. */
    List<String> unexpected() {
        return List.copyOf(unexpected);
    }
}
