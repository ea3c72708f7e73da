package dev.keyhaven.server.webhook;

import dev.keyhaven.server.custody.SealedSecret;
import java.time.Instant;
import java.util.Optional;

/** A stored webhook signing key: its id ({@code kid}), Ed25519 public key (hex) and sealed private key. */
public record WebhookSigningKey(
        String keyId, String publicKeyHex, SealedSecret sealedKey, Instant createdAt, Optional<Instant> retiredAt) {}
