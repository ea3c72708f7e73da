package dev.keyhaven.client;

import dev.keyhaven.crypto.VerifyingKey;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * Verifies a webhook delivery before its body is parsed: the signature headers are present, the timestamp is
 * within the freshness window, the version is {@code v1} and the algorithm {@code ed25519}, the key named by the
 * key-id header is in the JWKS ({@link WebhookKeys}, which refetches once for an unknown key id), and the Ed25519
 * signature over {@code v1.ed25519.<key_id>.<timestamp_ms>.<event_id>.<raw_body>} is valid. Pass the body exactly as
 * received (bytes, not re-serialised JSON). A rejected delivery should be answered with 401.
 */
public final class WebhookVerifier {
    private final WebhookKeys keys;
    private final String prefix;
    private final Duration maxAge;
    private final Clock clock;

    /** Why a delivery was rejected (the reasons of {@code @turnkey/crypto}'s verifier). */
    public enum Reason {
        MISSING_HEADER,
        INVALID_TIMESTAMP,
        STALE_TIMESTAMP,
        UNSUPPORTED_SIGNATURE_VERSION,
        UNSUPPORTED_SIGNATURE_ALGORITHM,
        MISSING_KEY,
        INVALID_SIGNATURE
    }

    /** The outcome of {@link #verify}. */
    public sealed interface Result {
        boolean ok();
    }

    /** A genuine, fresh delivery. */
    public record Verified(String eventId, String keyId, long timestampMs) implements Result {
        @Override
        public boolean ok() {
            return true;
        }
    }

    /** A delivery that must not be trusted; {@code header} names the missing header, if that is the reason. */
    public record Rejected(Reason reason, Optional<String> header) implements Result {
        @Override
        public boolean ok() {
            return false;
        }
    }

    /**
     * @param headerPrefix {@code Keyhaven} (headers {@code X-Keyhaven-...}) or {@code Turnkey}
     * @param maxAge how far the timestamp may lie from now, either way (5 minutes is the documented example)
     */
    public WebhookVerifier(WebhookKeys keys, String headerPrefix, Duration maxAge, Clock clock) {
        this.keys = keys;
        this.prefix = "x-" + headerPrefix.toLowerCase(Locale.ROOT) + "-";
        this.maxAge = maxAge;
        this.clock = clock;
    }

    /** Verifies with headers as a map of names (any letter case) to values. */
    public Result verify(Map<String, ? extends List<String>> headers, byte[] rawBody) {
        return verify(
                name -> headers.entrySet().stream()
                        .filter(e -> e.getKey().equalsIgnoreCase(name))
                        .flatMap(e -> e.getValue().stream())
                        .findFirst(),
                rawBody);
    }

    /** Verifies with headers looked up by lower-case name. */
    public Result verify(Function<String, Optional<String>> header, byte[] rawBody) {
        String[] names = {
            "timestamp", "event-id", "signature-key-id", "signature-algorithm", "signature-version", "signature"
        };
        String[] values = new String[names.length];
        for (int i = 0; i < names.length; i++) {
            Optional<String> value = header.apply(prefix + names[i]).filter(v -> !v.isEmpty());
            if (value.isEmpty()) {
                return new Rejected(Reason.MISSING_HEADER, Optional.of(prefix + names[i]));
            }
            values[i] = value.get();
        }
        String timestamp = values[0];
        String eventId = values[1];
        String keyId = values[2];
        if (!timestamp.matches("[0-9]{1,16}")) {
            return rejected(Reason.INVALID_TIMESTAMP);
        }
        long timestampMs = Long.parseLong(timestamp);
        if (Math.abs(clock.millis() - timestampMs) > maxAge.toMillis()) {
            return rejected(Reason.STALE_TIMESTAMP);
        }
        if (!values[4].equals("v1")) {
            return rejected(Reason.UNSUPPORTED_SIGNATURE_VERSION);
        }
        if (!values[3].equals("ed25519")) {
            return rejected(Reason.UNSUPPORTED_SIGNATURE_ALGORITHM);
        }
        Optional<byte[]> publicKey = keys.publicKey(keyId);
        if (publicKey.isEmpty()) {
            return rejected(Reason.MISSING_KEY);
        }
        byte[] signature;
        try {
            signature = HexFormat.of().parseHex(values[5]);
        } catch (IllegalArgumentException notHex) {
            return rejected(Reason.INVALID_SIGNATURE);
        }
        if (signature.length != 64) {
            return rejected(Reason.INVALID_SIGNATURE);
        }
        byte[] prefixBytes =
                ("v1.ed25519." + keyId + "." + timestamp + "." + eventId + ".").getBytes(StandardCharsets.UTF_8);
        byte[] message = new byte[prefixBytes.length + rawBody.length];
        System.arraycopy(prefixBytes, 0, message, 0, prefixBytes.length);
        System.arraycopy(rawBody, 0, message, prefixBytes.length, rawBody.length);
        boolean valid;
        try {
            valid = VerifyingKey.ed25519(publicKey.get()).verify(message, signature);
        } catch (IllegalArgumentException notAPoint) {
            valid = false;
        }
        return valid ? new Verified(eventId, keyId, timestampMs) : rejected(Reason.INVALID_SIGNATURE);
    }

    private static Rejected rejected(Reason reason) {
        return new Rejected(reason, Optional.empty());
    }
}
