package dev.keyhaven.server.custody;

import dev.keyhaven.crypto.SecretBytes;
import javax.crypto.spec.SecretKeySpec;

/**
 * A handle that seals secrets of one organization (or deployment scope) under its data key, without going back to
 * the database: what an operation that seals several secrets (a wallet and its accounts) holds while it works.
 */
public final class OwnerSealer {
    private final KeySealer sealer;
    private final String organizationId;
    private final SecretKeySpec dataKey;

    OwnerSealer(KeySealer sealer, String organizationId, SecretKeySpec dataKey) {
        this.sealer = sealer;
        this.organizationId = organizationId;
        this.dataKey = dataKey;
    }

    public String organizationId() {
        return organizationId;
    }

    /** Seals {@code secret} for {@code resourceId}; the secret stays the caller's to close. */
    public SealedSecret seal(SealPurpose purpose, String resourceId, SecretBytes secret) {
        return sealer.seal(dataKey, purpose, organizationId, resourceId, secret);
    }

    @Override
    public String toString() {
        return "OwnerSealer[" + organizationId + ", redacted]";
    }
}
