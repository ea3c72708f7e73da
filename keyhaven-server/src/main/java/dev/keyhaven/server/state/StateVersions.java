package dev.keyhaven.server.state;

import dev.keyhaven.server.tx.Tx;
import java.util.OptionalLong;

/** The organizations' state versions; implemented by the store. */
public interface StateVersions {

    /** The organization's current state version, or empty when there is no such organization. */
    OptionalLong current(Tx tx, String organizationId);

    /** Moves the organization to its next state version (the change becomes visible when {@code tx} commits). */
    void advance(Tx tx, String organizationId);
}
