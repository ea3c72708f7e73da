package dev.keyhaven.server.authproxy;

import dev.keyhaven.server.tx.Tx;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/** Storage of auth-proxy configurations; the settings travel as JSON ({@link AuthProxyConfigs}). */
public interface AuthProxyConfigRepository {

    /** A stored configuration: its id, organization and settings JSON. */
    record Stored(String id, String organizationId, String settings) {}

    void insert(Tx tx, Stored config, Instant now);

    void update(Tx tx, Stored config, Instant now);

    Optional<Stored> find(Tx tx, String id);

    /** Every configuration, oldest first. */
    List<Stored> all(Tx tx);
}
