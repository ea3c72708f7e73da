package dev.keyhaven.server.store;

import dev.keyhaven.server.state.StateVersions;
import dev.keyhaven.server.tx.Tx;
import java.util.OptionalLong;

/** {@code organizations.state_version}. */
public final class JdbcStateVersions implements StateVersions {

    @Override
    public OptionalLong current(Tx tx, String organizationId) {
        return Sql.one(tx, "SELECT state_version FROM organizations WHERE id = ?", rs -> rs.getLong(1), organizationId)
                .map(OptionalLong::of)
                .orElse(OptionalLong.empty());
    }

    @Override
    public void advance(Tx tx, String organizationId) {
        Sql.update(tx, "UPDATE organizations SET state_version = state_version + 1 WHERE id = ?", organizationId);
        JdbcTx.of(tx).heldOrganization(organizationId);
    }
}
