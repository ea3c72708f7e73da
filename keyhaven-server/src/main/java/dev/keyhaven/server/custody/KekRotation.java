package dev.keyhaven.server.custody;

import dev.keyhaven.crypto.SecretBytes;
import dev.keyhaven.server.tx.Transactor;
import java.security.SecureRandom;
import java.time.Clock;
import java.util.List;
import java.util.Optional;

/**
 * {@code kek rotate}: every data key re-wrapped under a new KEK, the check value replaced and the new KEK's locator
 * recorded, all in one transaction. No secret is touched (they are sealed under data keys, which do not change), so
 * running servers keep the data keys they have and follow the new KEK when they next unwrap one. Afterwards the old
 * KEK opens nothing in the database.
 */
public final class KekRotation {
    private KekRotation() {}

    /** What a rotation did: the new KEK's generation and how many data keys it re-wrapped. */
    public record Rotated(long generation, int dataKeys) {}

    /**
     * Rotates from {@code current} to {@code next}.
     *
     * @throws CustodyException when {@code current} is not the database's KEK, {@code next} already is, or secrets
     *         sealed before envelope encryption remain (a server's start moves them; then rotate)
     */
    public static Rotated rotate(
            Transactor transactor,
            DataKeyRepository repository,
            Kek current,
            Kek next,
            SecureRandom random,
            Clock clock) {
        return transactor.write(tx -> {
            DataKeyRepository.KekRecord record = repository
                    .lockKek(tx, true)
                    .orElseThrow(() -> new CustodyException(
                            "this database has no KEK yet; start a server on it once before rotating"));
            if (!DataKeys.opensCheck(current, record)) {
                throw new CustodyException("the current KEK given (" + current.locator() + ") does not open this "
                        + "database; its current KEK is generation " + record.generation() + ", "
                        + record.locator().map(KekDescriptions::describe).orElse("location not recorded"));
            }
            if (DataKeys.opensCheck(next, record)) {
                throw new CustodyException("the new KEK (" + next.locator() + ") is already this database's KEK");
            }
            long legacy = LegacySeals.remaining(tx, repository);
            if (legacy > 0) {
                throw new CustodyException(legacy + " secrets are still sealed directly under the KEK (from before "
                        + "envelope encryption); start a server on this database once to move them, then rotate");
            }
            long generation = record.generation() + 1;
            List<DataKeyRepository.WrappedDataKey> keys = repository.lockAllDataKeys(tx);
            for (DataKeyRepository.WrappedDataKey key : keys) {
                if (key.kekGeneration() != record.generation()) {
                    throw new CustodyException("the data key of " + key.ownerId() + " is wrapped by KEK generation "
                            + key.kekGeneration() + ", not the current " + record.generation());
                }
                byte[] aad = DataKeys.dataKeyAad(key.ownerId());
                try (SecretBytes plain = current.unwrap(key.wrapped().bytes(), aad)) {
                    repository.updateDataKey(
                            tx,
                            new DataKeyRepository.WrappedDataKey(
                                    key.ownerId(), SealedSecret.of(next.wrap(plain, aad)), generation));
                }
            }
            repository.updateKek(
                    tx,
                    new DataKeyRepository.KekRecord(
                            generation, Optional.of(next.locator().uri()), DataKeys.newCheck(next, random)),
                    clock.instant());
            return new Rotated(generation, keys.size());
        });
    }
}
