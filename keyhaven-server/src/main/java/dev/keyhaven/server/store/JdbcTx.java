package dev.keyhaven.server.store;

import dev.keyhaven.server.tx.Tx;
import java.sql.Connection;

/** A transaction on one JDBC connection. */
record JdbcTx(Connection connection, Dialect dialect) implements Tx {

    static JdbcTx of(Tx tx) {
        return (JdbcTx) tx;
    }
}
