package dev.keyhaven.server.webhook;

import static org.assertj.core.api.Assertions.assertThat;

import dev.keyhaven.crypto.KeyCurve;
import dev.keyhaven.crypto.SecretBytes;
import dev.keyhaven.server.custody.Custody;
import dev.keyhaven.server.custody.InMemoryKeys;
import dev.keyhaven.server.custody.KeySealer;
import dev.keyhaven.server.custody.MasterKey;
import dev.keyhaven.server.custody.SealPurpose;
import dev.keyhaven.server.tx.Tx;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import org.bouncycastle.crypto.params.Ed25519PublicKeyParameters;
import org.bouncycastle.crypto.signers.Ed25519Signer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The webhook keys' seal scope moved from custody into this feature without changing: a key sealed as custody sealed
 * them before (purpose {@code webhook-signing-key}, organization {@code keyhaven-webhooks}, resource its id) still
 * signs, and a key created now is sealed the same way.
 */
class WebhookSigningKeysTest {
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final Instant NOW = Instant.parse("2026-03-10T15:00:00Z");

    @TempDir
    Path directory;

    @Test
    void aKeySealedBeforeTheMoveStillSignsAndANewOneIsSealedTheSameWay() {
        KeySealer sealer = InMemoryKeys.sealer(MasterKey.generate(directory.resolve("kek"), RANDOM));
        Keys repository = new Keys();
        String publicKeyHex;
        try (SecretBytes seed = KeyCurve.ED25519.generatePrivateKey(RANDOM)) {
            publicKeyHex = HexFormat.of().formatHex(KeyCurve.ED25519.publicKey(seed));
            repository.keys.add(new WebhookSigningKey(
                    "key-1",
                    publicKeyHex,
                    sealer.seal(InMemoryKeys.TX, SealPurpose.WEBHOOK_SIGNING_KEY, "keyhaven-webhooks", "key-1", seed),
                    NOW.minusSeconds(60),
                    Optional.empty()));
        }
        WebhookSigningKeys keys = new WebhookSigningKeys(
                InMemoryKeys.DIRECT,
                repository,
                new Custody(sealer, RANDOM),
                WebhookSettings.DEFAULT,
                Clock.fixed(NOW, ZoneOffset.UTC),
                () -> "key-2");
        byte[] body = "{\"type\":\"ACTIVITY_UPDATED\"}".getBytes(StandardCharsets.UTF_8);

        WebhookSigningKeys.Signed signed = keys.sign(1773154800000L, "event-1", body);
        assertThat(signed.keyId()).isEqualTo("key-1");
        assertThat(verifies(publicKeyHex, "v1.ed25519.key-1.1773154800000.event-1.", body, signed.signatureHex()))
                .isTrue();

        keys.rotate();
        WebhookSigningKey created = repository.keys.getLast();
        assertThat(created.keyId()).isEqualTo("key-2");
        try (SecretBytes opened =
                sealer.open(SealPurpose.WEBHOOK_SIGNING_KEY, "keyhaven-webhooks", "key-2", created.sealedKey())) {
            assertThat(HexFormat.of().formatHex(KeyCurve.ED25519.publicKey(opened)))
                    .isEqualTo(created.publicKeyHex());
        }
        WebhookSigningKeys.Signed next = keys.sign(1773154800001L, "event-2", body);
        assertThat(next.keyId()).isEqualTo("key-2");
        assertThat(verifies(
                        created.publicKeyHex(), "v1.ed25519.key-2.1773154800001.event-2.", body, next.signatureHex()))
                .isTrue();
    }

    /** Ed25519 verification with BouncyCastle, over the prefix and the raw body. */
    private static boolean verifies(String publicKeyHex, String prefix, byte[] body, String signatureHex) {
        Ed25519Signer verifier = new Ed25519Signer();
        verifier.init(false, new Ed25519PublicKeyParameters(HexFormat.of().parseHex(publicKeyHex)));
        byte[] head = prefix.getBytes(StandardCharsets.UTF_8);
        verifier.update(head, 0, head.length);
        verifier.update(body, 0, body.length);
        return verifier.verifySignature(HexFormat.of().parseHex(signatureHex));
    }

    /** The signing keys, in memory; nothing else of the repository is used here. */
    private static final class Keys implements WebhookRepository {
        final List<WebhookSigningKey> keys = new ArrayList<>();

        @Override
        public List<WebhookSigningKey> signingKeys(Tx tx) {
            return List.copyOf(keys);
        }

        @Override
        public void insertSigningKey(Tx tx, WebhookSigningKey key) {
            keys.add(key);
        }

        @Override
        public void retireSigningKeys(Tx tx, Instant at) {
            keys.replaceAll(k -> k.retiredAt().isPresent()
                    ? k
                    : new WebhookSigningKey(
                            k.keyId(), k.publicKeyHex(), k.sealedKey(), k.createdAt(), Optional.of(at)));
        }

        private static AssertionError unused() {
            return new AssertionError("the signing keys use no other part of the repository");
        }

        @Override
        public void insertEndpoint(Tx tx, WebhookEndpoint endpoint) {
            throw unused();
        }

        @Override
        public void updateEndpoint(Tx tx, WebhookEndpoint endpoint) {
            throw unused();
        }

        @Override
        public void deleteEndpoint(Tx tx, String organizationId, String endpointId) {
            throw unused();
        }

        @Override
        public Optional<WebhookEndpoint> findEndpoint(Tx tx, String organizationId, String endpointId) {
            throw unused();
        }

        @Override
        public Optional<WebhookEndpoint> findEndpoint(Tx tx, String endpointId) {
            throw unused();
        }

        @Override
        public List<WebhookEndpoint> endpoints(Tx tx, String organizationId) {
            throw unused();
        }

        @Override
        public Optional<String> parentOrganization(Tx tx, String organizationId) {
            throw unused();
        }

        @Override
        public void insertDeliveries(Tx tx, List<WebhookDelivery> deliveries) {
            throw unused();
        }

        @Override
        public List<WebhookDelivery> claimDue(
                Tx tx, Instant now, Instant leaseUntil, int limit, Collection<String> skipEndpoints) {
            throw unused();
        }

        @Override
        public void update(
                Tx tx,
                String deliveryId,
                WebhookDelivery.Status status,
                int attempts,
                Instant nextAttemptAt,
                Optional<Integer> lastStatusCode,
                Optional<String> lastError,
                Instant now) {
            throw unused();
        }

        @Override
        public List<WebhookDelivery> deliveries(Tx tx, String endpointId, int limit) {
            throw unused();
        }

        @Override
        public Optional<WebhookDelivery> findDelivery(Tx tx, String deliveryId) {
            throw unused();
        }
    }
}
