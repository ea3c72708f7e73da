package dev.keyhaven.server.webhook;

import dev.keyhaven.server.tx.Transactor;
import java.io.IOException;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SequencedMap;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.random.RandomGenerator;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Delivers the outbox: a background thread claims due deliveries ({@link WebhookRepository#claimDue}, which on
 * PostgreSQL skips rows other servers hold) and attempts each on a virtual thread: the URL's host resolved once and
 * every address checked ({@link WebhookUrls#destination}), then a signed POST of the stored body to those addresses
 * only ({@link WebhookPost}): no redirects, one timeout for the whole exchange, at most {@code maxResponseBytes} of
 * the answer read. A 2xx
 * delivers; 3xx and 4xx (429 included) fail at once; network errors, timeouts and 5xx are retried with exponential
 * backoff and jitter until {@code maxAttempts}. Concurrency is bounded per server and per endpoint.
 */
public final class WebhookDeliverer implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(WebhookDeliverer.class);
    /**
     * What a claim adds to the request timeout before another server may take the delivery again; after a crash,
     * the deliveries that were in flight are attempted again once their claim runs out.
     */
    private static final Duration LEASE_MARGIN = Duration.ofSeconds(5);

    private static final int MAX_ERROR_LENGTH = 300;

    private final Transactor transactor;
    private final WebhookRepository repository;
    private final WebhookSigningKeys keys;
    private final WebhookUrls urls;
    private final WebhookSettings settings;
    private final Clock clock;
    private final RandomGenerator random;
    private final WebhookPost post;
    private final Semaphore permits;
    private final ConcurrentHashMap<String, AtomicInteger> perEndpoint = new ConcurrentHashMap<>();
    private final ExecutorService attempts = Executors.newVirtualThreadPerTaskExecutor();
    private final Object signal = new Object();
    private volatile boolean running;
    private boolean woken;
    private Thread poller;

    public WebhookDeliverer(
            Transactor transactor,
            WebhookRepository repository,
            WebhookSigningKeys keys,
            WebhookUrls urls,
            WebhookSettings settings,
            Clock clock,
            RandomGenerator random) {
        this.transactor = transactor;
        this.repository = repository;
        this.keys = keys;
        this.urls = urls;
        this.settings = settings;
        this.clock = clock;
        this.random = random;
        this.permits = new Semaphore(settings.maxConcurrent());
        this.post = new WebhookPost(settings.network(), settings.requestTimeout(), settings.maxResponseBytes());
    }

    /** Starts the background thread. */
    public synchronized void start() {
        keys.ensureKey();
        running = true;
        poller = Thread.ofPlatform().daemon().name("keyhaven-webhooks").start(this::poll);
    }

    /** Asks the poller to look at the outbox now rather than at its next interval. */
    public void wake() {
        synchronized (signal) {
            woken = true;
            signal.notifyAll();
        }
    }

    /**
     * Stops claiming and waits (up to the request timeout) for attempts in flight; one cut short is attempted again
     * when its claim expires.
     */
    @Override
    public synchronized void close() {
        if (poller == null) {
            return;
        }
        running = false;
        wake();
        try {
            poller.join(settings.requestTimeout().toMillis());
            attempts.shutdown();
            if (!attempts.awaitTermination(settings.requestTimeout().toMillis(), TimeUnit.MILLISECONDS)) {
                attempts.shutdownNow();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            attempts.shutdownNow();
        }
        post.close();
        poller = null;
    }

    private void poll() {
        while (running) {
            try {
                int free = permits.availablePermits();
                int claimed = free == 0 ? 0 : claimAndStart(free);
                if (claimed < free || free == 0) {
                    await();
                }
            } catch (RuntimeException e) {
                LOG.atWarn().addKeyValue("error", e.getClass().getSimpleName()).log("webhook outbox poll failed");
                await();
            }
        }
    }

    private void await() {
        synchronized (signal) {
            if (!woken && running) {
                try {
                    signal.wait(settings.pollInterval().toMillis());
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    running = false;
                }
            }
            woken = false;
        }
    }

    private int claimAndStart(int limit) {
        Instant now = clock.instant();
        Instant lease = now.plus(settings.requestTimeout()).plus(LEASE_MARGIN);
        // Endpoints with enough attempts in flight are left out of the claim, so a slow one cannot take every slot.
        Set<String> busy = perEndpoint.entrySet().stream()
                .filter(e -> e.getValue().get() >= settings.maxConcurrentPerEndpoint())
                .map(Map.Entry::getKey)
                .collect(Collectors.toSet());
        List<WebhookDelivery> due = transactor.write(tx -> repository.claimDue(tx, now, lease, limit, busy));
        List<WebhookDelivery> givenBack = new ArrayList<>();
        for (WebhookDelivery delivery : due) {
            AtomicInteger inFlight = perEndpoint.computeIfAbsent(delivery.endpointId(), id -> new AtomicInteger());
            if (inFlight.incrementAndGet() > settings.maxConcurrentPerEndpoint()) {
                inFlight.decrementAndGet();
                givenBack.add(delivery);
                continue;
            }
            permits.acquireUninterruptibly();
            attempts.execute(() -> {
                try {
                    attempt(delivery);
                } catch (RuntimeException e) {
                    LOG.atWarn()
                            .addKeyValue("delivery", delivery.id())
                            .addKeyValue("error", e.getClass().getSimpleName())
                            .log("webhook attempt failed");
                } finally {
                    inFlight.decrementAndGet();
                    permits.release();
                }
            });
        }
        if (!givenBack.isEmpty()) {
            // More of one endpoint's deliveries were due than it may have in flight: the claims are given back
            // without counting an attempt.
            transactor.write(tx -> {
                for (WebhookDelivery d : givenBack) {
                    repository.update(
                            tx,
                            d.id(),
                            WebhookDelivery.Status.PENDING,
                            d.attempts(),
                            now.plus(settings.pollInterval()),
                            d.lastStatusCode(),
                            d.lastError(),
                            now);
                }
                return null;
            });
        }
        return due.size();
    }

    private void attempt(WebhookDelivery delivery) {
        Optional<WebhookEndpoint> endpoint = transactor.read(tx -> repository.findEndpoint(tx, delivery.endpointId()));
        if (endpoint.isEmpty() || !endpoint.get().isActive()) {
            record(
                    delivery,
                    WebhookDelivery.Status.FAILED,
                    delivery.attempts(),
                    clock.instant(),
                    Optional.empty(),
                    Optional.of(endpoint.isEmpty() ? "the endpoint was deleted" : "the endpoint is not active"));
            return;
        }
        int attempt = delivery.attempts() + 1;
        WebhookDestination destination;
        try {
            // Resolved once and checked here; the attempt connects to these addresses and no other.
            destination = urls.destination(
                    URI.create(endpoint.get().url()), settings.network().resolver());
        } catch (RefusedDestination refused) {
            record(
                    delivery,
                    WebhookDelivery.Status.FAILED,
                    attempt,
                    clock.instant(),
                    Optional.empty(),
                    Optional.of(refused.getMessage()));
            return;
        }
        Outcome outcome = send(destination, delivery);
        WebhookDelivery.Status status;
        Instant next = clock.instant();
        if (outcome.statusCode().isPresent() && outcome.statusCode().get() / 100 == 2) {
            status = WebhookDelivery.Status.DELIVERED;
        } else if (outcome.retryable() && attempt < settings.maxAttempts()) {
            status = WebhookDelivery.Status.PENDING;
            next = next.plus(backoff(attempt));
        } else {
            status = WebhookDelivery.Status.FAILED;
        }
        LOG.atInfo()
                .addKeyValue("delivery", delivery.id())
                .addKeyValue("event", delivery.eventId())
                .addKeyValue("endpoint", delivery.endpointId())
                .addKeyValue("attempt", attempt)
                .addKeyValue("httpStatus", outcome.statusCode().orElse(0))
                .addKeyValue("status", status)
                .log("webhook attempt");
        record(delivery, status, attempt, next, outcome.statusCode(), outcome.error());
    }

    /** The answer of one attempt: a status code, or the network error; whether to try again. */
    private record Outcome(Optional<Integer> statusCode, Optional<String> error, boolean retryable) {}

    private Outcome send(WebhookDestination destination, WebhookDelivery delivery) {
        byte[] body = delivery.body().getBytes(StandardCharsets.UTF_8);
        long timestamp = clock.millis();
        WebhookSigningKeys.Signed signed = keys.sign(timestamp, delivery.eventId(), body);
        SequencedMap<String, String> headers = new LinkedHashMap<>();
        headers.put("Content-Type", "application/json");
        headers.put("User-Agent", "Keyhaven-Webhooks");
        headers.put(settings.header("Organization-Id"), delivery.organizationId());
        headers.put(settings.header("Event-Type"), delivery.eventType());
        headers.put(settings.header("Webhook-Version"), "1");
        headers.put(settings.header("Event-Id"), delivery.eventId());
        headers.put(settings.header("Timestamp"), Long.toString(timestamp));
        headers.put(settings.header("Signature-Key-Id"), signed.keyId());
        headers.put(settings.header("Signature-Algorithm"), "ed25519");
        headers.put(settings.header("Signature-Version"), "v1");
        headers.put(settings.header("Signature"), signed.signatureHex());
        try {
            int code = post.send(destination, headers, body);
            String error = code / 100 == 2 ? null : "HTTP " + code;
            return new Outcome(Optional.of(code), Optional.ofNullable(error), code >= 500);
        } catch (SocketTimeoutException e) {
            return new Outcome(Optional.empty(), Optional.of("timed out after " + settings.requestTimeout()), true);
        } catch (IOException e) {
            if (Thread.currentThread().isInterrupted() || !running) {
                return new Outcome(Optional.empty(), Optional.of("interrupted by shutdown"), true);
            }
            return new Outcome(Optional.empty(), Optional.of(describe(e)), true);
        }
    }

    private static String describe(Throwable error) {
        String message =
                error.getClass().getSimpleName() + (error.getMessage() == null ? "" : ": " + error.getMessage());
        return message.length() <= MAX_ERROR_LENGTH ? message : message.substring(0, MAX_ERROR_LENGTH) + "…";
    }

    /** Exponential from {@code firstRetryDelay}, capped, then a random 50–100 % of it. */
    Duration backoff(int attemptsMade) {
        long first = settings.firstRetryDelay().toMillis();
        long max = settings.maxRetryDelay().toMillis();
        long delay = first;
        for (int i = 1; i < attemptsMade && delay < max; i++) {
            delay *= 2;
        }
        delay = Math.min(delay, max);
        return Duration.ofMillis(delay / 2 + (long) (random.nextDouble() * (delay - delay / 2)));
    }

    private void record(
            WebhookDelivery delivery,
            WebhookDelivery.Status status,
            int attemptsMade,
            Instant next,
            Optional<Integer> statusCode,
            Optional<String> error) {
        transactor.write(tx -> {
            repository.update(tx, delivery.id(), status, attemptsMade, next, statusCode, error, clock.instant());
            return null;
        });
    }
}
