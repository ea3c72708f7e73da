package dev.keyhaven.server.custody;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.keyhaven.crypto.SecretBytes;
import dev.keyhaven.crypto.SecretKeyAccess;
import dev.keyhaven.server.tx.Transactor;
import dev.keyhaven.server.tx.Tx;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Clock;
import java.util.Optional;
import java.util.function.Function;
import javax.crypto.spec.SecretKeySpec;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Envelope encryption's data keys: one AES-256 key per owner of secrets (an organization, or one of the deployment's
 * own scopes), created with its first secret, stored wrapped by the KEK ({@code data_keys}). The KEK wraps nothing
 * else, so it is used only when a data key is first needed by this process: an HSM round trip is rare and signing
 * costs what it did before.
 *
 * <p>Unwrapped data keys are cached by owner. The cache may briefly hold a key whose creation rolled back; it is never
 * trusted blindly: sealing compares the cached entry with the owner's row in its own transaction, and opening retries
 * with the stored key when the cached one fails the GCM tag.
 *
 * <p>After {@code kek rotate} the rows carry the new KEK's generation. A process that meets one reads the new KEK's
 * locator from the database, opens it, checks it against the recorded check value and uses it from then on: running
 * servers follow a rotation without a restart.
 */
public final class DataKeys {
    private static final Logger LOG = LoggerFactory.getLogger(DataKeys.class);
    /** Owners whose unwrapped key stays in memory; a miss costs one indexed read and one KEK unwrap. */
    static final int CACHED_OWNERS = 10_000;

    static final int KEY_BYTES = 32;
    private static final String CHECK_ID = "master-key-check";

    private final Transactor transactor;
    private final DataKeyRepository repository;
    private final Function<KekLocator, Kek> opener;
    private final SecureRandom random;
    private final Clock clock;
    private final Cache<String, Entry> cache =
            Caffeine.newBuilder().maximumSize(CACHED_OWNERS).build();
    private volatile Current current;

    private record Current(Kek kek, long generation) {}

    private record Entry(SealedSecret wrapped, SecretKeySpec key) {
        @Override
        public String toString() {
            return "DataKey[redacted]";
        }
    }

    private DataKeys(
            Transactor transactor,
            DataKeyRepository repository,
            Function<KekLocator, Kek> opener,
            SecureRandom random,
            Clock clock,
            Current current) {
        this.transactor = transactor;
        this.repository = repository;
        this.opener = opener;
        this.random = random;
        this.clock = clock;
        this.current = current;
    }

    /**
     * Checks {@code kek} against the database (recording it when the database has none yet) and returns the data
     * keys under it.
     *
     * @param opener opens the KEK a later rotation records (running servers follow it)
     * @throws CustodyException when {@code kek} is not the database's current KEK
     */
    public static DataKeys open(
            Transactor transactor,
            DataKeyRepository repository,
            Kek kek,
            Function<KekLocator, Kek> opener,
            SecureRandom random,
            Clock clock) {
        Optional<DataKeyRepository.KekRecord> recorded = transactor.read(repository::kek);
        if (recorded.isEmpty()) {
            DataKeyRepository.KekRecord first =
                    new DataKeyRepository.KekRecord(1, Optional.of(kek.locator().uri()), newCheck(kek, random));
            try {
                transactor.write(tx -> {
                    repository.insertKek(tx, first, clock.instant());
                    return null;
                });
                return new DataKeys(transactor, repository, opener, random, clock, new Current(kek, 1));
            } catch (Transactor.ConstraintViolation raced) {
                // Another process recorded its KEK first; ours must be the same one.
                recorded = transactor.read(repository::kek);
            }
        }
        DataKeyRepository.KekRecord record = recorded.orElseThrow();
        if (!opensCheck(kek, record)) {
            throw new CustodyException("the KEK (" + kek.locator() + ") does not open this database; its current KEK"
                    + " is generation " + record.generation() + ", "
                    + record.locator().map(KekDescriptions::describe).orElse("location not recorded")
                    + "; refusing to start");
        }
        if (record.locator().isEmpty()) {
            // A database from before locators were recorded: note where this KEK lives, for rotations to come.
            transactor.write(tx -> {
                repository.updateKek(
                        tx,
                        new DataKeyRepository.KekRecord(
                                record.generation(), Optional.of(kek.locator().uri()), record.check()),
                        clock.instant());
                return null;
            });
        }
        return new DataKeys(transactor, repository, opener, random, clock, new Current(kek, record.generation()));
    }

    /** A fresh random value wrapped by {@code kek}: what tells later whether a KEK is this database's. */
    static SealedSecret newCheck(Kek kek, SecureRandom random) {
        byte[] value = new byte[KEY_BYTES];
        random.nextBytes(value);
        try (SecretBytes check = SecretBytes.adopt(value)) {
            return SealedSecret.of(kek.wrap(check, checkAad()));
        }
    }

    static boolean opensCheck(Kek kek, DataKeyRepository.KekRecord record) {
        try (SecretBytes _ = kek.unwrap(record.check().bytes(), checkAad())) {
            return true;
        } catch (CustodyException doesNotOpen) {
            return false;
        }
    }

    /** The check value's binding; the same as when it was a sealed secret, so older databases' checks still open. */
    static byte[] checkAad() {
        return KeySealer.aad(SealPurpose.MASTER_KEY_CHECK, CHECK_ID, CHECK_ID);
    }

    /** Length-prefixed, so a data key wrapped for one owner cannot be moved to another's row. */
    static byte[] dataKeyAad(String ownerId) {
        byte[] label = "keyhaven-data-key-v1".getBytes(StandardCharsets.UTF_8);
        byte[] owner = ownerId.getBytes(StandardCharsets.UTF_8);
        return ByteBuffer.allocate(8 + label.length + owner.length)
                .putInt(label.length)
                .put(label)
                .putInt(owner.length)
                .put(owner)
                .array();
    }

    /** The KEK this process uses now. */
    Kek kek() {
        return current.kek();
    }

    /** The generation of the KEK this process uses now. */
    long kekGeneration() {
        return current.generation();
    }

    /**
     * The key to seal {@code ownerId}'s secrets with, created (and stored in {@code tx}) with the owner's first secret.
     */
    SecretKeySpec forSealing(Tx tx, String ownerId) {
        Optional<DataKeyRepository.WrappedDataKey> stored = repository.dataKey(tx, ownerId);
        if (stored.isPresent()) {
            return keyOf(tx, stored.get());
        }
        // Creating a data key takes the KEK record's lock (shared), so a rotation waits for this transaction and a
        // key wrapped by the old KEK cannot be left behind by it.
        DataKeyRepository.KekRecord kek = repository.lockKek(tx, false).orElseThrow();
        Current now = follow(kek);
        byte[] fresh = new byte[KEY_BYTES];
        random.nextBytes(fresh);
        try (SecretBytes key = SecretBytes.adopt(fresh)) {
            DataKeyRepository.WrappedDataKey created = new DataKeyRepository.WrappedDataKey(
                    ownerId, SealedSecret.of(now.kek().wrap(key, dataKeyAad(ownerId))), now.generation());
            if (repository.insertDataKeyIfAbsent(tx, created, clock.instant())) {
                SecretKeySpec spec = key.apply(SecretKeyAccess.get(), bytes -> new SecretKeySpec(bytes, "AES"));
                cache.put(ownerId, new Entry(created.wrapped(), spec));
                return spec;
            }
        }
        // Another transaction created the owner's key meanwhile (and committed it): use that one.
        return keyOf(tx, repository.dataKey(tx, ownerId).orElseThrow());
    }

    /** The cached key of {@code ownerId}, if this process has one; it may be stale (see the class comment). */
    SecretKeySpec cached(String ownerId) {
        Entry entry = cache.getIfPresent(ownerId);
        return entry == null ? null : entry.key();
    }

    /** Forgets a cached key that failed to open a secret. */
    void evict(String ownerId) {
        cache.invalidate(ownerId);
    }

    /**
     * The stored key of {@code ownerId}, read in {@code tx}.
     *
     * @throws CustodyException when the owner has no data key (so it has no secret to open)
     */
    SecretKeySpec stored(Tx tx, String ownerId) {
        return keyOf(
                tx,
                repository
                        .dataKey(tx, ownerId)
                        .orElseThrow(() -> new CustodyException("no data key is stored for the owner of this secret")));
    }

    /** {@link #stored(Tx, String)} in a read transaction of its own, for callers outside any transaction. */
    SecretKeySpec stored(String ownerId) {
        return transactor.read(tx -> stored(tx, ownerId));
    }

    private SecretKeySpec keyOf(Tx tx, DataKeyRepository.WrappedDataKey stored) {
        Entry entry = cache.getIfPresent(stored.ownerId());
        if (entry != null && entry.wrapped().equals(stored.wrapped())) {
            return entry.key();
        }
        Current now = current;
        if (stored.kekGeneration() != now.generation()) {
            now = follow(repository.kek(tx).orElseThrow());
        }
        if (stored.kekGeneration() != now.generation()) {
            throw new CustodyException("a data key is wrapped by KEK generation " + stored.kekGeneration()
                    + ", but the database's current KEK is generation " + now.generation());
        }
        try (SecretBytes key = now.kek().unwrap(stored.wrapped().bytes(), dataKeyAad(stored.ownerId()))) {
            SecretKeySpec spec = key.apply(SecretKeyAccess.get(), bytes -> new SecretKeySpec(bytes, "AES"));
            cache.put(stored.ownerId(), new Entry(stored.wrapped(), spec));
            return spec;
        }
    }

    /**
     * The KEK of {@code recorded}: this process's, or, after a rotation, the new one opened from its locator and
     * checked against the recorded check value.
     */
    private synchronized Current follow(DataKeyRepository.KekRecord recorded) {
        Current now = current;
        if (recorded.generation() == now.generation()) {
            return now;
        }
        if (recorded.generation() < now.generation()) {
            throw new CustodyException("the database's KEK record (generation " + recorded.generation()
                    + ") is older than the one this server uses (generation " + now.generation() + ")");
        }
        KekLocator locator = KekLocator.parse(recorded.locator()
                .orElseThrow(() -> new CustodyException("the KEK was rotated but its new location is not recorded")));
        Kek next = opener.apply(locator);
        if (!opensCheck(next, recorded)) {
            next.close();
            throw new CustodyException(
                    "the KEK recorded by the last rotation (" + locator + ") does not open the database's check value");
        }
        // The previous KEK is not closed: a request may be unwrapping with it right now. It is dropped with this
        // object, and its rows no longer open with it anyway.
        Current followed = new Current(next, recorded.generation());
        current = followed;
        LOG.info("following a KEK rotation: now using generation {} ({})", recorded.generation(), locator);
        return followed;
    }

    /**
     * Rotates the database to {@code next} ({@link KekRotation}) and uses it from now on.
     *
     * @throws CustodyException when the rotation is refused; nothing changed then
     */
    public KekRotation.Rotated rotateTo(Kek next) {
        KekRotation.Rotated rotated = KekRotation.rotate(transactor, repository, current.kek(), next, random, clock);
        synchronized (this) {
            current = new Current(next, rotated.generation());
        }
        return rotated;
    }

    /** Where the KEK this process uses lives. */
    public KekLocator kekLocator() {
        return current.kek().locator();
    }

    /** Closes the KEK this process holds. */
    public void close() {
        current.kek().close();
    }

    @Override
    public String toString() {
        return "DataKeys[KEK generation " + current.generation() + ", " + cache.estimatedSize() + " cached]";
    }
}
