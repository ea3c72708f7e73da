package dev.keyhaven.server.state;

import dev.keyhaven.server.tx.Tx;
import dev.keyhaven.server.tx.TxWork;

/**
 * Lookups of one organization's state. Each lookup is named by a key — a record of the lookup's own type holding its
 * arguments — so that an implementation may remember the answer for as long as it stays true.
 */
public interface StateReads {

    String organizationId();

    /**
     * The answer to the lookup {@code key}, computed by {@code load} unless it is already known.
     *
     * @param load reads the answer in a transaction; must not return null (use {@code Optional} for "none")
     */
    <V> V get(Object key, TxWork<V> load);

    /**
     * A serialised answer (JSON bytes, never modified by the caller), computed by {@code load} unless already known.
     * Unlike {@link #get}, which keeps small lookups, an implementation may keep these within a byte budget.
     */
    default byte[] answer(Object key, TxWork<byte[]> load) {
        return get(key, load);
    }

    /** Lookups made directly in {@code tx}, remembering nothing: what a write transaction sees is what counts. */
    static StateReads in(Tx tx, String organizationId) {
        return new StateReads() {
            @Override
            public String organizationId() {
                return organizationId;
            }

            @Override
            public <V> V get(Object key, TxWork<V> load) {
                return load.run(tx);
            }
        };
    }
}
