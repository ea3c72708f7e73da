package dev.keyhaven.server.webhook;

import java.time.Duration;
import java.util.Locale;

/**
 * How webhooks are delivered.
 *
 * @param headerPrefix the {@code <svc>} of the delivery headers ({@code X-<svc>-Signature}) and of the JWKS fields
 *        ({@code <svc>_signature_version}, lower-cased): {@code Keyhaven}, or {@code Turnkey} for receivers written
 *        against Turnkey
 * @param allowInsecureUrls accept {@code http} and loopback, private and link-local addresses (tests, local dev)
 * @param maxAttempts attempts per delivery before it is marked failed
 * @param firstRetryDelay the delay before the second attempt; each further one doubles, up to {@code maxRetryDelay},
 *        with jitter (a random 50–100 % of it)
 * @param requestTimeout connecting, sending and reading the answer of one attempt, together
 * @param maxResponseBytes how much of an answer may be read to find its status line (nothing past the final status
 *        line is read)
 * @param maxConcurrent attempts in flight per server
 * @param maxConcurrentPerEndpoint attempts in flight per endpoint and server, so one slow receiver cannot take all
 * @param pollInterval how often the outbox is checked for due deliveries
 * @param retiredKeyGrace how long a rotated-out signing key stays in the JWKS
 * @param network how receivers are looked up and connected to ({@link WebhookNetwork#SYSTEM} but in tests)
 */
public record WebhookSettings(
        String headerPrefix,
        boolean allowInsecureUrls,
        int maxAttempts,
        Duration firstRetryDelay,
        Duration maxRetryDelay,
        Duration requestTimeout,
        int maxResponseBytes,
        int maxConcurrent,
        int maxConcurrentPerEndpoint,
        Duration pollInterval,
        Duration retiredKeyGrace,
        WebhookNetwork network) {

    /** An answer's status line and its interim answers must fit; nothing shorter is a useful cap. */
    static final int MIN_RESPONSE_BYTES = 64;

    public static final WebhookSettings DEFAULT = new WebhookSettings(
            "Keyhaven",
            false,
            10,
            Duration.ofSeconds(5),
            Duration.ofHours(1),
            Duration.ofSeconds(10),
            64 * 1024,
            32,
            4,
            Duration.ofMillis(500),
            Duration.ofDays(8),
            WebhookNetwork.SYSTEM);

    public WebhookSettings {
        if (!headerPrefix.matches("[A-Za-z][A-Za-z0-9]{0,31}")) {
            throw new IllegalArgumentException("the webhook header prefix must be letters and digits, starting with "
                    + "a letter: " + headerPrefix);
        }
        if (maxAttempts < 1 || maxConcurrent < 1 || maxConcurrentPerEndpoint < 1) {
            throw new IllegalArgumentException("webhook attempts and concurrency limits must be positive");
        }
        if (maxResponseBytes < MIN_RESPONSE_BYTES) {
            throw new IllegalArgumentException(
                    "webhook answers must be read up to at least " + MIN_RESPONSE_BYTES + " bytes");
        }
    }

    public WebhookSettings withHeaderPrefix(String prefix) {
        return toBuilder().headerPrefix(prefix).build();
    }

    public WebhookSettings withAllowInsecureUrls(boolean allow) {
        return toBuilder().allowInsecureUrls(allow).build();
    }

    /** Retries: how many attempts, the first delay and the largest. */
    public WebhookSettings withRetries(int attempts, Duration first, Duration max) {
        return toBuilder().retries(attempts, first, max).build();
    }

    public WebhookSettings withRequestTimeout(Duration timeout) {
        return toBuilder().requestTimeout(timeout).build();
    }

    public WebhookSettings withPollInterval(Duration interval) {
        return toBuilder().pollInterval(interval).build();
    }

    /** These settings with another way of reaching receivers (tests: a resolver, a dialer, a trust store). */
    public WebhookSettings withNetwork(WebhookNetwork other) {
        return toBuilder().network(other).build();
    }

    private Builder toBuilder() {
        return new Builder(this);
    }

    /** A copy of settings with some values changed; {@link #build} checks them all again. */
    private static final class Builder {
        private String headerPrefix;
        private boolean allowInsecureUrls;
        private int maxAttempts;
        private Duration firstRetryDelay;
        private Duration maxRetryDelay;
        private Duration requestTimeout;
        private final int maxResponseBytes;
        private final int maxConcurrent;
        private final int maxConcurrentPerEndpoint;
        private Duration pollInterval;
        private final Duration retiredKeyGrace;
        private WebhookNetwork network;

        Builder(WebhookSettings from) {
            headerPrefix = from.headerPrefix;
            allowInsecureUrls = from.allowInsecureUrls;
            maxAttempts = from.maxAttempts;
            firstRetryDelay = from.firstRetryDelay;
            maxRetryDelay = from.maxRetryDelay;
            requestTimeout = from.requestTimeout;
            maxResponseBytes = from.maxResponseBytes;
            maxConcurrent = from.maxConcurrent;
            maxConcurrentPerEndpoint = from.maxConcurrentPerEndpoint;
            pollInterval = from.pollInterval;
            retiredKeyGrace = from.retiredKeyGrace;
            network = from.network;
        }

        Builder headerPrefix(String value) {
            headerPrefix = value;
            return this;
        }

        Builder allowInsecureUrls(boolean value) {
            allowInsecureUrls = value;
            return this;
        }

        Builder retries(int attempts, Duration first, Duration max) {
            maxAttempts = attempts;
            firstRetryDelay = first;
            maxRetryDelay = max;
            return this;
        }

        Builder requestTimeout(Duration value) {
            requestTimeout = value;
            return this;
        }

        Builder pollInterval(Duration value) {
            pollInterval = value;
            return this;
        }

        Builder network(WebhookNetwork value) {
            network = value;
            return this;
        }

        WebhookSettings build() {
            return new WebhookSettings(
                    headerPrefix,
                    allowInsecureUrls,
                    maxAttempts,
                    firstRetryDelay,
                    maxRetryDelay,
                    requestTimeout,
                    maxResponseBytes,
                    maxConcurrent,
                    maxConcurrentPerEndpoint,
                    pollInterval,
                    retiredKeyGrace,
                    network);
        }
    }

    /** {@code X-<svc>-<name>}. */
    String header(String name) {
        return "X-" + headerPrefix + "-" + name;
    }

    /** {@code <svc>_<name>} in lower case, for the JWKS. */
    String jwksField(String name) {
        return headerPrefix.toLowerCase(Locale.ROOT) + "_" + name;
    }
}
