package dev.keyhaven.chains.solana;

import java.util.List;

/**
 * A v0 message's reference to entries of an on-chain address lookup table. Keyhaven does not read chain state, so the
 * addresses it loads stay unknown; only the table and the indexes are.
 *
 * @param tableKey the table's account, Base58
 * @param writableIndexes entries loaded as writable accounts
 * @param readonlyIndexes entries loaded as read-only accounts
 */
record AddressTableLookup(String tableKey, List<Integer> writableIndexes, List<Integer> readonlyIndexes) {
    AddressTableLookup {
        writableIndexes = List.copyOf(writableIndexes);
        readonlyIndexes = List.copyOf(readonlyIndexes);
    }

    int loadedCount() {
        return writableIndexes.size() + readonlyIndexes.size();
    }
}
