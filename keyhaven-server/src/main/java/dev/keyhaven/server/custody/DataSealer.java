package dev.keyhaven.server.custody;

import dev.keyhaven.crypto.SecretBytes;
import dev.keyhaven.crypto.SecretKeyAccess;
import dev.keyhaven.server.tx.Tx;
import java.util.EnumSet;
import java.util.Set;

/**
 * AEAD under the KEK (through {@link KeySealer}: AES-256-GCM bound to purpose, organization and resource) for secrets
 * that are a feature's data rather than keys: an OAuth 2.0 client secret, which Keyhaven must itself send to the
 * provider. It refuses every purpose that holds key material, so no feature reads a key through it.
 */
public final class DataSealer {
    private static final Set<SealPurpose> DATA = EnumSet.of(SealPurpose.OAUTH2_CLIENT_SECRET);

    private final KeySealer sealer;

    public DataSealer(KeySealer sealer) {
        this.sealer = sealer;
    }

    /** Seals {@code plaintext} for one resource; the array stays the caller's to wipe. */
    public SealedSecret seal(Tx tx, SealPurpose purpose, String organizationId, String resourceId, byte[] plaintext) {
        requireData(purpose);
        try (SecretBytes secret = SecretBytes.copyOf(plaintext)) {
            return sealer.seal(tx, purpose, organizationId, resourceId, secret);
        }
    }

    /** Opens what {@link #seal} sealed; the caller wipes the result when done. */
    public byte[] open(SealPurpose purpose, String organizationId, String resourceId, SealedSecret sealed) {
        requireData(purpose);
        try (SecretBytes secret = sealer.open(purpose, organizationId, resourceId, sealed)) {
            return secret.apply(SecretKeyAccess.get(), byte[]::clone);
        }
    }

    private static void requireData(SealPurpose purpose) {
        if (!DATA.contains(purpose)) {
            throw new IllegalStateException("a " + purpose.label() + " holds key material; it is not opened here");
        }
    }

    @Override
    public String toString() {
        return "DataSealer";
    }
}
