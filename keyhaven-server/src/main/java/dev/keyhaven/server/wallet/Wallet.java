package dev.keyhaven.server.wallet;

import java.time.Instant;

/** A wallet: a named BIP-39 mnemonic (stored sealed, not held here) from which accounts are derived. */
public record Wallet(
        String id,
        String organizationId,
        String name,
        boolean exported,
        boolean imported,
        Instant createdAt,
        Instant updatedAt) {}
