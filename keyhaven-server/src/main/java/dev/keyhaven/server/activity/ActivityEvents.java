package dev.keyhaven.server.activity;

import dev.keyhaven.server.state.StateReads;
import dev.keyhaven.server.tx.Tx;

/**
 * Told of every status an activity is recorded with, inside the transaction that records it, so that whatever it
 * writes (an event outbox) commits or rolls back with the activity.
 */
public interface ActivityEvents {

    /** Tells nobody. */
    ActivityEvents NONE = (tx, reads, activity) -> {};

    /**
     * {@code activity} has just been written with its (new) status in {@code tx}; {@code reads} are the lookups of
     * its organization the transaction commits on.
     */
    void statusChanged(Tx tx, StateReads reads, Activity activity);

    /**
     * Called before the short write transaction of an activity decided on a remembered state, so that lookups
     * {@link #statusChanged} needs can be made (and remembered) outside it.
     */
    default void preparing(StateReads reads) {}
}
