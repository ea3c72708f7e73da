package dev.keyhaven.server.custody;

import dev.keyhaven.server.tx.Tx;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/** Storage of envelope encryption: the current KEK's record and every owner's wrapped data key. */
public interface DataKeyRepository {

    /**
     * The current KEK as the database knows it.
     *
     * @param generation 1 for the first KEK, one more after each rotation
     * @param locator where it lives ({@link KekLocator#uri()}); empty when no server has recorded it yet
     * @param check a random value wrapped by it: a KEK that does not open this is not the database's
     */
    record KekRecord(long generation, Optional<String> locator, SealedSecret check) {}

    /** One owner's data key wrapped by the KEK of {@code kekGeneration}. */
    record WrappedDataKey(String ownerId, SealedSecret wrapped, long kekGeneration) {}

    /** A sealed value as stored, for the start-up upgrade ({@link SealedColumn}). */
    record SealedRow(String id, String ownerId, SealedSecret sealed) {}

    Optional<KekRecord> kek(Tx tx);

    /**
     * The KEK record, locked until {@code tx} ends (PostgreSQL): shared by transactions that create data keys,
     * exclusively by a rotation, so a rotation waits for them and they wait for it.
     */
    Optional<KekRecord> lockKek(Tx tx, boolean exclusive);

    /** Records the first KEK; a concurrent first start of another server makes this a constraint violation. */
    void insertKek(Tx tx, KekRecord kek, Instant at);

    void updateKek(Tx tx, KekRecord kek, Instant at);

    Optional<WrappedDataKey> dataKey(Tx tx, String ownerId);

    /** Inserts a data key unless the owner has one already (then it changes nothing and answers false). */
    boolean insertDataKeyIfAbsent(Tx tx, WrappedDataKey dataKey, Instant at);

    /** Every data key, locked until {@code tx} ends (PostgreSQL). */
    List<WrappedDataKey> lockAllDataKeys(Tx tx);

    void updateDataKey(Tx tx, WrappedDataKey dataKey);

    /** Up to {@code limit} values of {@code column} sealed in the format from before envelope encryption. */
    List<SealedRow> legacySealed(Tx tx, SealedColumn column, int limit);

    /** How many values of {@code column} are still sealed in the format from before envelope encryption. */
    long countLegacySealed(Tx tx, SealedColumn column);

    /** Replaces one row's sealed value, unless it changed meanwhile (then it answers false). */
    boolean replaceSealed(Tx tx, SealedColumn column, String id, SealedSecret old, SealedSecret replacement);
}
