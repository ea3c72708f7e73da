package dev.keyhaven.client;

import static org.assertj.core.api.Assertions.assertThat;

import dev.keyhaven.crypto.SigningKey;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Seed §6.3 verification, tampering, freshness, and the JWKS cache (Cache-Control, refetch on an unknown kid). */
class WebhookVerifierTest {
    private static final long NOW = 1_760_000_000_000L;
    private static final byte[] BODY =
            "{\"id\":\"a\",\"status\":\"ACTIVITY_STATUS_COMPLETED\"}".getBytes(StandardCharsets.UTF_8);

    private final SecureRandom random = new SecureRandom();
    private final SigningKey first = SigningKey.generateEd25519(random);
    private final SigningKey second = SigningKey.generateEd25519(random);
    private final List<Map<String, SigningKey>> served = new ArrayList<>();
    private String cacheControl = "public, max-age=86400, s-maxage=86400, stale-if-error=604800";
    private Clock clock = Clock.fixed(Instant.ofEpochMilli(NOW), ZoneOffset.UTC);

    private WebhookKeys keys(String prefix) {
        return new WebhookKeys(
                () -> new WebhookKeys.Fetched(
                        jwks(prefix, served.getLast()).getBytes(StandardCharsets.UTF_8),
                        Optional.ofNullable(cacheControl)),
                prefix,
                () -> clock.instant());
    }

    private static String jwks(String prefix, Map<String, SigningKey> keys) {
        StringBuilder out = new StringBuilder("{\"keys\":[");
        keys.forEach((kid, key) -> out.append(out.charAt(out.length() - 1) == '[' ? "" : ",")
                .append("{\"kid\":\"")
                .append(kid)
                .append("\",\"kty\":\"OKP\",\"crv\":\"Ed25519\",\"alg\":\"EdDSA\",\"use\":\"sig\",\"x\":\"")
                .append(Base64.getUrlEncoder().withoutPadding().encodeToString(key.publicKey()))
                .append("\",\"")
                .append(prefix.toLowerCase(Locale.ROOT))
                .append("_signature_algorithm\":\"ed25519\",\"")
                .append(prefix.toLowerCase(Locale.ROOT))
                .append("_signature_version\":\"v1\"}"));
        return out.append("]}").toString();
    }

    private static Map<String, List<String>> delivery(
            String prefix, SigningKey key, String kid, long timestamp, String eventId, byte[] body) {
        byte[] head = ("v1.ed25519." + kid + "." + timestamp + "." + eventId + ".").getBytes(StandardCharsets.UTF_8);
        byte[] message = new byte[head.length + body.length];
        System.arraycopy(head, 0, message, 0, head.length);
        System.arraycopy(body, 0, message, head.length, body.length);
        Map<String, List<String>> h = new LinkedHashMap<>();
        h.put("X-" + prefix + "-Timestamp", List.of(Long.toString(timestamp)));
        h.put("X-" + prefix + "-Event-Id", List.of(eventId));
        h.put("X-" + prefix + "-Signature-Key-Id", List.of(kid));
        h.put("X-" + prefix + "-Signature-Algorithm", List.of("ed25519"));
        h.put("X-" + prefix + "-Signature-Version", List.of("v1"));
        h.put("X-" + prefix + "-Signature", List.of(HexFormat.of().formatHex(key.sign(message))));
        return h;
    }

    private WebhookVerifier verifier(WebhookKeys keys, String prefix) {
        return new WebhookVerifier(
                keys, prefix, Duration.ofMinutes(5), Clock.fixed(Instant.ofEpochMilli(NOW), ZoneOffset.UTC));
    }

    @Test
    void aGenuineDeliveryVerifies() {
        served.add(Map.of("k1", first));
        WebhookVerifier verifier = verifier(keys("Keyhaven"), "Keyhaven");
        WebhookVerifier.Result result =
                verifier.verify(delivery("Keyhaven", first, "k1", NOW - 1000, "e1", BODY), BODY);
        assertThat(result).isEqualTo(new WebhookVerifier.Verified("e1", "k1", NOW - 1000));
    }

    @Test
    void tamperingWithTheBodyTheEventIdOrTheTimestampFails() {
        served.add(Map.of("k1", first));
        WebhookVerifier verifier = verifier(keys("Keyhaven"), "Keyhaven");
        Map<String, List<String>> headers = delivery("Keyhaven", first, "k1", NOW, "e1", BODY);
        byte[] tampered = BODY.clone();
        tampered[10] ^= 1;
        assertThat(verifier.verify(headers, tampered))
                .isEqualTo(new WebhookVerifier.Rejected(WebhookVerifier.Reason.INVALID_SIGNATURE, Optional.empty()));
        Map<String, List<String>> otherEvent = with(headers, "X-Keyhaven-Event-Id", "e2");
        assertThat(verifier.verify(otherEvent, BODY).ok()).isFalse();
        Map<String, List<String>> otherTime = with(headers, "X-Keyhaven-Timestamp", Long.toString(NOW - 1));
        assertThat(verifier.verify(otherTime, BODY)).isInstanceOf(WebhookVerifier.Rejected.class);
        assertThat(verifier.verify(
                                headers,
                                "{\"id\": \"a\",\"status\":\"ACTIVITY_STATUS_COMPLETED\"}"
                                        .getBytes(StandardCharsets.UTF_8))
                        .ok())
                .isFalse();
    }

    @Test
    void missingHeadersStaleTimestampsAndUnsupportedVersionsAreRejected() {
        served.add(Map.of("k1", first));
        WebhookVerifier verifier = verifier(keys("Keyhaven"), "Keyhaven");
        Map<String, List<String>> headers = delivery("Keyhaven", first, "k1", NOW, "e1", BODY);
        Map<String, List<String>> missing = new LinkedHashMap<>(headers);
        missing.remove("X-Keyhaven-Signature");
        assertThat(verifier.verify(missing, BODY))
                .isEqualTo(new WebhookVerifier.Rejected(
                        WebhookVerifier.Reason.MISSING_HEADER, Optional.of("x-keyhaven-signature")));
        assertThat(reason(verifier, delivery("Keyhaven", first, "k1", NOW - 300_001, "e1", BODY)))
                .isEqualTo(WebhookVerifier.Reason.STALE_TIMESTAMP);
        assertThat(reason(verifier, delivery("Keyhaven", first, "k1", NOW + 300_001, "e1", BODY)))
                .isEqualTo(WebhookVerifier.Reason.STALE_TIMESTAMP);
        Map<String, List<String>> badTime = with(headers, "X-Keyhaven-Timestamp", "-5");
        assertThat(reason(verifier, badTime)).isEqualTo(WebhookVerifier.Reason.INVALID_TIMESTAMP);
        Map<String, List<String>> v2 = with(headers, "X-Keyhaven-Signature-Version", "v2");
        assertThat(reason(verifier, v2)).isEqualTo(WebhookVerifier.Reason.UNSUPPORTED_SIGNATURE_VERSION);
        Map<String, List<String>> rsa = with(headers, "X-Keyhaven-Signature-Algorithm", "rsa");
        assertThat(reason(verifier, rsa)).isEqualTo(WebhookVerifier.Reason.UNSUPPORTED_SIGNATURE_ALGORITHM);
        Map<String, List<String>> shortSignature = with(headers, "X-Keyhaven-Signature", "abcd");
        assertThat(reason(verifier, shortSignature)).isEqualTo(WebhookVerifier.Reason.INVALID_SIGNATURE);
        assertThat(reason(verifier, delivery("Keyhaven", second, "k1", NOW, "e1", BODY)))
                .isEqualTo(WebhookVerifier.Reason.INVALID_SIGNATURE);
    }

    @Test
    void anUnknownKeyIdRefetchesTheJwksOnceThenTheCacheServes() {
        served.add(Map.of("k1", first));
        WebhookKeys keys = keys("Turnkey");
        WebhookVerifier verifier = verifier(keys, "Turnkey");
        assertThat(verifier.verify(delivery("Turnkey", first, "k1", NOW, "e1", BODY), BODY)
                        .ok())
                .isTrue();
        assertThat(verifier.verify(delivery("Turnkey", first, "k1", NOW, "e2", BODY), BODY)
                        .ok())
                .isTrue();
        assertThat(keys.fetches()).isEqualTo(1);

        served.add(Map.of("k1", first, "k2", second)); // rotated: k2 signs, k1 stays
        assertThat(verifier.verify(delivery("Turnkey", second, "k2", NOW, "e3", BODY), BODY)
                        .ok())
                .isTrue();
        assertThat(keys.fetches()).isEqualTo(2);
        assertThat(verifier.verify(delivery("Turnkey", first, "k1", NOW, "e4", BODY), BODY)
                        .ok())
                .isTrue();
        assertThat(reason(verifier, delivery("Turnkey", second, "k3", NOW, "e5", BODY)))
                .isEqualTo(WebhookVerifier.Reason.MISSING_KEY);
        assertThat(keys.fetches()).isEqualTo(3);
    }

    @Test
    void theCacheExpiresAsCacheControlSays() {
        served.add(Map.of("k1", first));
        cacheControl = "max-age=60";
        WebhookKeys keys = keys("Keyhaven");
        assertThat(keys.publicKey("k1")).isPresent();
        assertThat(keys.publicKey("k1")).isPresent();
        assertThat(keys.fetches()).isEqualTo(1);
        clock = Clock.offset(clock, Duration.ofSeconds(61));
        assertThat(keys.publicKey("k1")).isPresent();
        assertThat(keys.fetches()).isEqualTo(2);
        cacheControl = "no-store";
        assertThat(WebhookKeys.maxAge(Optional.of("no-store, max-age=60"))).isZero();
        assertThat(WebhookKeys.maxAge(Optional.empty())).isZero();
        assertThat(WebhookKeys.maxAge(Optional.of("public, max-age=86400, s-maxage=86400")))
                .isEqualTo(86400);
    }

    private static Map<String, List<String>> with(Map<String, List<String>> headers, String name, String value) {
        Map<String, List<String>> changed = new LinkedHashMap<>(headers);
        changed.put(name, List.of(value));
        return changed;
    }

    private static WebhookVerifier.Reason reason(WebhookVerifier verifier, Map<String, List<String>> headers) {
        return ((WebhookVerifier.Rejected) verifier.verify(headers, BODY)).reason();
    }
}
