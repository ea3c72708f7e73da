package dev.keyhaven.server.custody;

import dev.keyhaven.server.tx.Transactor;
import dev.keyhaven.server.tx.Tx;
import dev.keyhaven.server.tx.TxWork;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/** Envelope encryption over an in-memory store, for unit tests of what seals and opens secrets. */
public final class InMemoryKeys {
    private static final SecureRandom RANDOM = new SecureRandom();

    /** The one transaction of an in-memory store. */
    public static final Tx TX = new Tx() {};

    /** Runs every unit of work at once, in {@link #TX}. */
    public static final Transactor DIRECT = new Transactor() {
        @Override
        public <T> T write(TxWork<T> work) {
            return work.run(TX);
        }

        @Override
        public <T> T read(TxWork<T> work) {
            return work.run(TX);
        }
    };

    private InMemoryKeys() {}

    /** A sealer over a fresh in-memory store whose KEK is {@code key}. */
    public static KeySealer sealer(MasterKey key) {
        return sealer(key, new Rows());
    }

    /** A sealer over {@code rows} whose KEK is {@code key}. */
    public static KeySealer sealer(MasterKey key, Rows rows) {
        return new KeySealer(dataKeys(new FileKek(key, RANDOM), rows), RANDOM);
    }

    static DataKeys dataKeys(Kek kek, Rows rows) {
        return DataKeys.open(DIRECT, rows, kek, locator -> locator.open(RANDOM), RANDOM, Clock.systemUTC());
    }

    /** The deployment's signer rows of one database, in memory. */
    public static final class Signers implements CustodyRepository {
        public final Map<String, StoredSigner> signers = new ConcurrentHashMap<>();

        @Override
        public Optional<StoredSigner> signer(Tx tx, String role) {
            return Optional.ofNullable(signers.get(role));
        }

        @Override
        public void insertSigner(Tx tx, String role, StoredSigner signer, Instant createdAt) {
            signers.put(role, signer);
        }
    }

    /** The {@code kek} row and {@code data_keys} of one database, in memory. */
    public static final class Rows implements DataKeyRepository {
        volatile KekRecord kek;
        final Map<String, WrappedDataKey> dataKeys = new ConcurrentHashMap<>();

        @Override
        public Optional<KekRecord> kek(Tx tx) {
            return Optional.ofNullable(kek);
        }

        @Override
        public Optional<KekRecord> lockKek(Tx tx, boolean exclusive) {
            return kek(tx);
        }

        @Override
        public void insertKek(Tx tx, KekRecord record, Instant at) {
            if (kek != null) {
                throw new Transactor.ConstraintViolation("kek exists", null);
            }
            kek = record;
        }

        @Override
        public void updateKek(Tx tx, KekRecord record, Instant at) {
            kek = record;
        }

        @Override
        public Optional<WrappedDataKey> dataKey(Tx tx, String ownerId) {
            return Optional.ofNullable(dataKeys.get(ownerId));
        }

        @Override
        public boolean insertDataKeyIfAbsent(Tx tx, WrappedDataKey dataKey, Instant at) {
            return dataKeys.putIfAbsent(dataKey.ownerId(), dataKey) == null;
        }

        @Override
        public List<WrappedDataKey> lockAllDataKeys(Tx tx) {
            return new ArrayList<>(dataKeys.values());
        }

        @Override
        public void updateDataKey(Tx tx, WrappedDataKey dataKey) {
            dataKeys.put(dataKey.ownerId(), dataKey);
        }

        @Override
        public List<SealedRow> legacySealed(Tx tx, SealedColumn column, int limit) {
            return List.of();
        }

        @Override
        public long countLegacySealed(Tx tx, SealedColumn column) {
            return 0;
        }

        @Override
        public boolean replaceSealed(
                Tx tx, SealedColumn column, String id, SealedSecret old, SealedSecret replacement) {
            // This store holds only data keys: no table has a row to replace.
            return false;
        }
    }
}
