package dev.keyhaven.server.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.keyhaven.server.tx.Transactor;
import java.nio.file.Path;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * SQLite's statements are prepared once per connection and reused by later transactions; one whose use failed is
 * not reused, and a statement in use is not handed out twice.
 */
class StatementCacheIT {
    private static final String INSERT = "INSERT INTO scratch (n) VALUES (?)";

    @TempDir
    Path directory;

    @Test
    void aStatementIsReusedAcrossTransactionsAndOneThatFailedIsPreparedAgain() throws Exception {
        // One connection, so that every transaction below runs on the same one.
        try (Database database = Database.open(Database.embeddedUrl(directory), 1, null)) {
            Transactor transactor = database.transactor();
            transactor.write(tx -> Sql.update(tx, "CREATE TABLE scratch (n INTEGER PRIMARY KEY)"));
            PreparedStatement first = transactor.write(tx -> usedOnce(JdbcTx.of(tx)));
            PreparedStatement second = transactor.read(tx -> usedOnce(JdbcTx.of(tx)));
            assertThat(second).isSameAs(first);

            transactor.write(tx -> Sql.update(tx, INSERT, 1));
            assertThatThrownBy(() -> transactor.write(tx -> Sql.update(tx, INSERT, 1)))
                    .isInstanceOf(Transactor.ConstraintViolation.class);
            PreparedStatement afterFailure = transactor.read(tx -> usedOnce(JdbcTx.of(tx)));
            assertThat(afterFailure).isNotSameAs(first);
            assertThat(first.isClosed()).isTrue();

            transactor.write(tx -> Sql.update(tx, INSERT, 2));
            List<Long> stored =
                    transactor.read(tx -> Sql.list(tx, "SELECT n FROM scratch ORDER BY n", rs -> rs.getLong(1)));
            assertThat(stored).containsExactly(1L, 2L);
        }
    }

    @Test
    void aStatementInUseIsNotHandedOutAgain() throws Exception {
        try (Database database = Database.open(Database.embeddedUrl(directory), 1, null)) {
            PreparedStatement[] both = database.transactor().read(tx -> {
                try {
                    JdbcTx jdbc = JdbcTx.of(tx);
                    PreparedStatement outer = jdbc.statement("SELECT 1");
                    PreparedStatement inner = jdbc.statement("SELECT 1");
                    jdbc.release("SELECT 1", inner, true);
                    jdbc.release("SELECT 1", outer, true);
                    return new PreparedStatement[] {outer, inner};
                } catch (SQLException e) {
                    throw new IllegalStateException(e);
                }
            });
            assertThat(both[0]).isNotSameAs(both[1]);
            // Two were given back for one SQL: the last is kept, the other closed.
            assertThat(both[0].isClosed()).isFalse();
            assertThat(both[1].isClosed()).isTrue();
        }
    }

    /** The insert's statement, taken and given back without running it. */
    private static PreparedStatement usedOnce(JdbcTx tx) {
        try {
            PreparedStatement statement = tx.statement(INSERT);
            tx.release(INSERT, statement, true);
            return statement;
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }
}
