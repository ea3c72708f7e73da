package dev.keyhaven.server.custody;

import dev.keyhaven.crypto.SecretBytes;
import dev.keyhaven.crypto.SecretKeyAccess;
import dev.keyhaven.crypto.bundle.QuorumEnvelope;
import dev.keyhaven.server.tx.Transactor;
import java.security.SecureRandom;
import java.time.Clock;

/**
 * A deployment key clients encrypt secrets to in a QuorumOS envelope (Turnkey's TLS-fetcher encryption key, the
 * credential-encryption key of OAuth 2.0 client secrets): generated on the first start of a database, sealed under
 * the KEK, shared by every server on it. It opens envelopes; its private key never leaves custody.
 */
public final class EnvelopeKey {
    private final String rowId;
    private final SealPurpose purpose;
    private final KeySealer sealer;
    private final CustodyRepository.StoredSigner stored;

    private EnvelopeKey(String rowId, SealPurpose purpose, KeySealer sealer, CustodyRepository.StoredSigner stored) {
        this.rowId = rowId;
        this.purpose = purpose;
        this.sealer = sealer;
        this.stored = stored;
    }

    /** The OAuth 2.0 credential-encryption key, generated (and sealed under the KEK) when the database has none. */
    public static EnvelopeKey loadOauth2(
            Transactor transactor, CustodyRepository repository, KeySealer sealer, SecureRandom random, Clock clock) {
        String rowId = SealPurpose.OAUTH2_ENCRYPTION_KEY.label();
        return new EnvelopeKey(
                rowId,
                SealPurpose.OAUTH2_ENCRYPTION_KEY,
                sealer,
                DeploymentKeys.loadOrCreate(
                        rowId, SealPurpose.OAUTH2_ENCRYPTION_KEY, transactor, repository, sealer, random, clock));
    }

    /** The public key clients encrypt to: 65-byte uncompressed SEC1, hex. */
    public String publicKeyHex() {
        return stored.publicKeyHex();
    }

    /**
     * The message of an envelope addressed to this key; the caller wipes it when done.
     *
     * @throws IllegalArgumentException when it is no envelope, not addressed to this key, or altered (the message
     *         describes the layout problem, never the bytes)
     */
    public byte[] open(byte[] envelope) {
        try (SecretBytes key = DeploymentKeys.open(rowId, purpose, sealer, stored);
                SecretBytes message = QuorumEnvelope.open(key, envelope)) {
            return message.apply(SecretKeyAccess.get(), byte[]::clone);
        }
    }

    @Override
    public String toString() {
        return "EnvelopeKey[" + rowId + ", " + stored.publicKeyHex() + "]";
    }
}
