package dev.keyhaven.server.webhook;

import dev.keyhaven.crypto.KeyCurve;
import dev.keyhaven.crypto.sign.Signature;
import dev.keyhaven.server.api.Ids;
import dev.keyhaven.server.custody.Custody;
import dev.keyhaven.server.custody.DerivedKey;
import dev.keyhaven.server.custody.KeyHandle;
import dev.keyhaven.server.custody.SealPurpose;
import dev.keyhaven.server.tx.Transactor;
import dev.keyhaven.server.tx.Tx;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The Ed25519 keys that sign deliveries. The newest key that is not retired signs; {@link #rotate} retires it and
 * creates the next. Retired keys stay in the JWKS for {@code retiredKeyGrace}, so receivers that refetch the JWKS on
 * an unknown {@code kid} keep verifying deliveries signed before the rotation. Rotations made by another server or
 * by the {@code webhook-keys rotate} command are picked up within {@link #RELOAD}.
 */
public final class WebhookSigningKeys {
    /** How long the signing key is used before the store is asked again whether it is still the newest. */
    static final Duration RELOAD = Duration.ofSeconds(5);
    /**
     * The organization the keys are sealed under (part of each seal's additional data). The keys belong to the
     * deployment, not to one organization; this name is the webhook feature's, kept so every stored key still opens.
     */
    static final String SEAL_SCOPE = "keyhaven-webhooks";

    private final Transactor transactor;
    private final WebhookRepository repository;
    private final Custody custody;
    private final WebhookSettings settings;
    private final Clock clock;
    private final Ids ids;
    private volatile Loaded loaded;

    private record Loaded(WebhookSigningKey key, Instant at) {}

    /** A signature of one attempt: the key that made it and the hex of its 64 bytes. */
    public record Signed(String keyId, String signatureHex) {}

    public WebhookSigningKeys(
            Transactor transactor,
            WebhookRepository repository,
            Custody custody,
            WebhookSettings settings,
            Clock clock,
            Ids ids) {
        this.transactor = transactor;
        this.repository = repository;
        this.custody = custody;
        this.settings = settings;
        this.clock = clock;
        this.ids = ids;
    }

    /**
     * Signs {@code v1.ed25519.<key_id>.<timestamp_ms>.<event_id>.<raw_body>} with the current key, creating the first
     * key when there is none.
     */
    public Signed sign(long timestampMs, String eventId, byte[] body) {
        WebhookSigningKey key = current();
        byte[] prefix = ("v1.ed25519." + key.keyId() + "." + timestampMs + "." + eventId + ".")
                .getBytes(StandardCharsets.UTF_8);
        byte[] message = new byte[prefix.length + body.length];
        System.arraycopy(prefix, 0, message, 0, prefix.length);
        System.arraycopy(body, 0, message, prefix.length, body.length);
        Signature signature = custody.signEd25519(
                new KeyHandle(
                        KeyCurve.ED25519, SealPurpose.WEBHOOK_SIGNING_KEY, SEAL_SCOPE, key.keyId(), key.sealedKey()),
                message);
        return new Signed(key.keyId(), signature.rHex() + signature.sHex());
    }

    /** The key that signs now, creating the first one when the store has none. */
    WebhookSigningKey current() {
        Loaded known = loaded;
        Instant now = clock.instant();
        if (known != null && known.at().plus(RELOAD).isAfter(now)) {
            return known.key();
        }
        WebhookSigningKey key =
                transactor.read(tx -> newestActive(repository.signingKeys(tx))).orElseGet(this::createFirst);
        loaded = new Loaded(key, now);
        return key;
    }

    /** Makes sure a key exists (at start, so the JWKS is never empty). */
    public void ensureKey() {
        current();
    }

    /** Retires the signing key and creates the next one, which signs from now on; returns its id. */
    public String rotate() {
        WebhookSigningKey next = transactor.write(tx -> {
            WebhookSigningKey created = newKey(tx);
            repository.retireSigningKeys(tx, clock.instant());
            repository.insertSigningKey(tx, created);
            return created;
        });
        loaded = new Loaded(next, clock.instant());
        return next.keyId();
    }

    /** The JWKS: every key still signing and every key retired less than the grace period ago, newest first. */
    public Map<String, Object> jwks() {
        Instant cutoff = clock.instant().minus(settings.retiredKeyGrace());
        List<WebhookSigningKey> keys = transactor.read(repository::signingKeys).stream()
                .filter(k -> k.retiredAt().map(r -> r.isAfter(cutoff)).orElse(true))
                .sorted(Comparator.comparing(WebhookSigningKey::createdAt).reversed())
                .toList();
        return Map.of("keys", keys.stream().map(this::jwk).toList());
    }

    private Map<String, String> jwk(WebhookSigningKey key) {
        Map<String, String> jwk = new LinkedHashMap<>();
        jwk.put("kid", key.keyId());
        jwk.put("kty", "OKP");
        jwk.put("crv", "Ed25519");
        jwk.put("alg", "EdDSA");
        jwk.put("use", "sig");
        jwk.put(
                "x",
                Base64.getUrlEncoder()
                        .withoutPadding()
                        .encodeToString(HexFormat.of().parseHex(key.publicKeyHex())));
        jwk.put(settings.jwksField("signature_algorithm"), "ed25519");
        jwk.put(settings.jwksField("signature_version"), "v1");
        return jwk;
    }

    private WebhookSigningKey createFirst() {
        return transactor.write(tx -> {
            // Two servers starting on an empty store may both get here; the loser uses the winner's key.
            Optional<WebhookSigningKey> existing = newestActive(repository.signingKeys(tx));
            if (existing.isPresent()) {
                return existing.get();
            }
            WebhookSigningKey key = newKey(tx);
            repository.insertSigningKey(tx, key);
            return key;
        });
    }

    private WebhookSigningKey newKey(Tx tx) {
        String keyId = ids.next();
        DerivedKey created =
                custody.createKey(tx, KeyCurve.ED25519, SealPurpose.WEBHOOK_SIGNING_KEY, SEAL_SCOPE, keyId);
        return new WebhookSigningKey(
                keyId,
                HexFormat.of().formatHex(created.publicKey()),
                created.sealedKey(),
                clock.instant(),
                Optional.empty());
    }

    private static Optional<WebhookSigningKey> newestActive(List<WebhookSigningKey> keys) {
        return keys.stream()
                .filter(k -> k.retiredAt().isEmpty())
                .max(Comparator.comparing(WebhookSigningKey::createdAt).thenComparing(WebhookSigningKey::keyId));
    }
}
