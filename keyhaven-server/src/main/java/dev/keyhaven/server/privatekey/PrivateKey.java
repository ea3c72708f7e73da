package dev.keyhaven.server.privatekey;

import dev.keyhaven.crypto.KeyCurve;
import java.time.Instant;
import java.util.List;

/**
 * A standalone private key (stored sealed, not held here) with the addresses it was created with.
 *
 * @param publicKey lowercase hex: 65-byte uncompressed for ECDSA curves (as the real service reports raw keys),
 *        32 bytes for Ed25519
 */
public record PrivateKey(
        String id,
        String organizationId,
        String name,
        KeyCurve curve,
        String publicKey,
        List<PrivateKeyAddress> addresses,
        boolean exported,
        boolean imported,
        Instant createdAt,
        Instant updatedAt) {}
