package dev.keyhaven.server.custody;

import dev.keyhaven.crypto.KeyCurve;
import dev.keyhaven.crypto.SecretBytes;
import dev.keyhaven.server.tx.Transactor;
import java.security.SecureRandom;
import java.time.Clock;
import java.util.HexFormat;
import java.util.Optional;

/**
 * Server-held P-256 keys other than the bundle signers, stored like them (one row of {@code bundle_signer}, the
 * private key sealed under the KEK with the key's own purpose): generated on the first start of a database, shared
 * by every server on it.
 */
final class DeploymentKeys {
    private DeploymentKeys() {}

    /** The key recorded as {@code rowId}, generated and recorded when the database has none yet. */
    static CustodyRepository.StoredSigner loadOrCreate(
            String rowId,
            SealPurpose purpose,
            Transactor transactor,
            CustodyRepository repository,
            KeySealer sealer,
            SecureRandom random,
            Clock clock) {
        Optional<CustodyRepository.StoredSigner> stored = transactor.read(tx -> repository.signer(tx, rowId));
        if (stored.isPresent()) {
            return stored.get();
        }
        try (SecretBytes key = KeyCurve.P256.generatePrivateKey(random)) {
            return transactor.write(tx -> {
                CustodyRepository.StoredSigner created = new CustodyRepository.StoredSigner(
                        HexFormat.of().formatHex(P256Signatures.uncompressedPublicKey(key)),
                        sealer.seal(tx, purpose, rowId, rowId, key));
                repository.insertSigner(tx, rowId, created, clock.instant());
                return created;
            });
        } catch (Transactor.ConstraintViolation raced) {
            // Another server recorded its key first; use that one.
            return transactor.read(tx -> repository.signer(tx, rowId)).orElseThrow();
        }
    }

    /** Opens the key {@link #loadOrCreate} returned; the caller closes it. */
    static SecretBytes open(String rowId, SealPurpose purpose, KeySealer sealer, CustodyRepository.StoredSigner key) {
        SecretBytes opened = sealer.open(purpose, rowId, rowId, key.sealedKey());
        if (!HexFormat.of()
                .formatHex(P256Signatures.uncompressedPublicKey(opened))
                .equals(key.publicKeyHex())) {
            opened.close();
            throw new CustodyException("the stored " + rowId + " does not match its recorded public key");
        }
        return opened;
    }
}
