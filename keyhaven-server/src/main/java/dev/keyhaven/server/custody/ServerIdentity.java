package dev.keyhaven.server.custody;

import dev.keyhaven.crypto.KeyCurve;
import dev.keyhaven.crypto.SecretBytes;
import dev.keyhaven.server.tx.Transactor;
import dev.keyhaven.server.tx.Tx;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Instant;
import java.util.HexFormat;
import java.util.Optional;

/**
 * Keyhaven's long-term signing key (P-256): generated on the first start, stored only sealed under the KEK, and used
 * to sign each start's boot proof. Verifiers pin its public key. Several servers on one database share it.
 */
public final class ServerIdentity {
    private static final String RESOURCE = "server-identity";

    private final KeySealer sealer;
    private final Stored stored;

    /** The identity as stored: public key (uncompressed hex) and the sealed private key. */
    public record Stored(String publicKeyHex, SealedSecret sealed) {}

    /** Storage of the one identity row. */
    public interface Repository {
        Optional<Stored> find(Tx tx);

        /** Inserts the identity; a concurrent first start of another server makes this a constraint violation. */
        void insert(Tx tx, Stored identity, Instant createdAt);
    }

    private ServerIdentity(KeySealer sealer, Stored stored) {
        this.sealer = sealer;
        this.stored = stored;
    }

    /** The database's identity, created (and sealed under the KEK) when it has none yet. */
    public static ServerIdentity open(
            Transactor transactor, Repository repository, KeySealer sealer, SecureRandom random, Clock clock) {
        Optional<Stored> found = transactor.read(repository::find);
        if (found.isPresent()) {
            return new ServerIdentity(sealer, found.get());
        }
        try (SecretBytes key = KeyCurve.P256.generatePrivateKey(random)) {
            Stored created = transactor.write(tx -> {
                Stored sealed = new Stored(
                        HexFormat.of().formatHex(P256Signatures.uncompressedPublicKey(key)),
                        sealer.seal(tx, SealPurpose.SERVER_IDENTITY, RESOURCE, RESOURCE, key));
                repository.insert(tx, sealed, clock.instant());
                return sealed;
            });
            return new ServerIdentity(sealer, created);
        } catch (Transactor.ConstraintViolation raced) {
            return new ServerIdentity(sealer, transactor.read(repository::find).orElseThrow());
        }
    }

    /** The 65-byte uncompressed public key, hex. */
    public String publicKeyHex() {
        return stored.publicKeyHex();
    }

    /** Raw r ‖ s (64 bytes) of ECDSA-P256 over SHA-256 of {@code message}; the key is opened for this one signature. */
    public byte[] sign(byte[] message) {
        try (SecretBytes key = sealer.open(SealPurpose.SERVER_IDENTITY, RESOURCE, RESOURCE, stored.sealed())) {
            return P256Signatures.signSha256(key, message);
        }
    }

    @Override
    public String toString() {
        return "ServerIdentity[" + publicKeyHex() + "]";
    }
}
