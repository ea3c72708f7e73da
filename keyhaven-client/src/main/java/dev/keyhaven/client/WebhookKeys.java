package dev.keyhaven.client;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.Base64;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The webhook signing keys of a Keyhaven (or Turnkey) deployment, fetched from its JWKS
 * ({@code GET /public/v1/discovery/webhooks/jwks}) and cached for as long as the response's {@code Cache-Control:
 * max-age} allows ({@code no-store}, {@code no-cache} or no max-age: not cached). A key id the cache does not know
 * makes it fetch the JWKS again, once, before the key is reported missing: a rotated-in key is found without
 * waiting for the cache to expire.
 */
public final class WebhookKeys {
    private static final Pattern MAX_AGE = Pattern.compile("(?:^|[,\\s])max-age\\s*=\\s*\"?(\\d+)\"?");

    private final Fetcher fetcher;
    private final String fieldPrefix;
    private final InstantSource clock;
    private Map<String, byte[]> keys = Map.of();
    private Instant expires = Instant.MIN;
    private int fetches;

    /** Fetches a JWKS: the response body and its {@code Cache-Control} header, if any. */
    @FunctionalInterface
    public interface Fetcher {
        Fetched fetch();
    }

    /** A fetched JWKS. */
    public record Fetched(byte[] body, Optional<String> cacheControl) {}

    /**
     * @param headerPrefix the deployment's {@code <svc>} ({@code Keyhaven}, or {@code Turnkey}): keys whose {@code
     *        <svc>_signature_algorithm} or {@code <svc>_signature_version} say something other than {@code ed25519}
     *        and {@code v1} are skipped
     */
    public WebhookKeys(Fetcher fetcher, String headerPrefix, InstantSource clock) {
        this.fetcher = fetcher;
        this.fieldPrefix = headerPrefix.toLowerCase(Locale.ROOT) + "_";
        this.clock = clock;
    }

    /** Keys fetched over HTTP from {@code jwksUrl}. */
    public static WebhookKeys fetching(HttpClient http, URI jwksUrl, String headerPrefix, InstantSource clock) {
        return new WebhookKeys(
                () -> {
                    try {
                        HttpResponse<byte[]> response = http.send(
                                HttpRequest.newBuilder(jwksUrl)
                                        .timeout(Duration.ofSeconds(10))
                                        .GET()
                                        .build(),
                                HttpResponse.BodyHandlers.ofByteArray());
                        if (response.statusCode() != 200) {
                            throw new IllegalStateException("the JWKS answered HTTP " + response.statusCode());
                        }
                        return new Fetched(response.body(), response.headers().firstValue("Cache-Control"));
                    } catch (IOException e) {
                        throw new UncheckedIOException("fetching the JWKS failed", e);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        throw new IllegalStateException("interrupted while fetching the JWKS", e);
                    }
                },
                headerPrefix,
                clock);
    }

    /**
     * The 32-byte Ed25519 public key with id {@code keyId}: from the cache while it is fresh, else (or when the key
     * is not in it) from a new fetch of the JWKS.
     */
    public synchronized Optional<byte[]> publicKey(String keyId) {
        boolean fresh = clock.instant().isBefore(expires);
        if (fresh && keys.containsKey(keyId)) {
            return Optional.of(keys.get(keyId).clone());
        }
        refresh();
        return Optional.ofNullable(keys.get(keyId)).map(byte[]::clone);
    }

    /** How many times the JWKS has been fetched. */
    public synchronized int fetches() {
        return fetches;
    }

    private void refresh() {
        Fetched fetched = fetcher.fetch();
        fetches++;
        Instant now = clock.instant();
        Map<String, byte[]> parsed = new HashMap<>();
        JsonNode jwks = JsonMapper.builder().build().readTree(fetched.body());
        for (JsonNode key : jwks.path("keys")) {
            usableKey(key).ifPresent(bytes -> parsed.put(key.path("kid").asString(), bytes));
        }
        keys = Map.copyOf(parsed);
        expires = now.plusSeconds(maxAge(fetched.cacheControl()));
    }

    private Optional<byte[]> usableKey(JsonNode key) {
        if (!key.path("kid").isString()
                || !"OKP".equals(key.path("kty").asString(""))
                || !"Ed25519".equals(key.path("crv").asString(""))
                || !key.path(fieldPrefix + "signature_algorithm")
                        .asString("ed25519")
                        .equals("ed25519")
                || !key.path(fieldPrefix + "signature_version").asString("v1").equals("v1")) {
            return Optional.empty();
        }
        try {
            byte[] x = Base64.getUrlDecoder().decode(key.path("x").asString(""));
            return x.length == 32 ? Optional.of(x) : Optional.empty();
        } catch (IllegalArgumentException notBase64Url) {
            return Optional.empty();
        }
    }

    /** Seconds a response may be reused: its {@code max-age}, or 0. */
    static long maxAge(Optional<String> cacheControl) {
        if (cacheControl.isEmpty()) {
            return 0;
        }
        String value = cacheControl.get().toLowerCase(Locale.ROOT);
        if (value.contains("no-store") || value.contains("no-cache")) {
            return 0;
        }
        Matcher m = MAX_AGE.matcher(value);
        if (!m.find()) {
            return 0;
        }
        try {
            return Long.parseLong(m.group(1));
        } catch (NumberFormatException huge) {
            return 0;
        }
    }
}
