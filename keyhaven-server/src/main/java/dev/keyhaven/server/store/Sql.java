package dev.keyhaven.server.store;

import dev.keyhaven.server.api.ApiException;
import dev.keyhaven.server.api.TextFlaws;
import dev.keyhaven.server.tx.Transactor;
import dev.keyhaven.server.tx.Tx;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.sqlite.SQLiteErrorCode;
import org.sqlite.SQLiteException;

/**
 * Small JDBC helpers: bind arguments, map rows, translate errors. Instants are stored as microseconds since the
 * epoch; {@code Optional} arguments bind their value or NULL.
 */
final class Sql {
    private Sql() {}

    /** Maps the current row of a result set. */
    @FunctionalInterface
    interface RowMapper<T> {
        T map(ResultSet rs) throws SQLException;
    }

    static int update(Tx tx, String sql, Object... args) {
        JdbcTx jdbc = JdbcTx.of(tx);
        boolean succeeded = false;
        try {
            PreparedStatement statement = prepare(jdbc, sql, args);
            try {
                int changed = statement.executeUpdate();
                succeeded = true;
                return changed;
            } finally {
                jdbc.release(sql, statement, succeeded);
            }
        } catch (SQLException e) {
            throw translate(e, sql);
        }
    }

    static <T> List<T> list(Tx tx, String sql, RowMapper<T> mapper, Object... args) {
        JdbcTx jdbc = JdbcTx.of(tx);
        boolean succeeded = false;
        try {
            PreparedStatement statement = prepare(jdbc, sql, args);
            try {
                List<T> out = new ArrayList<>();
                try (ResultSet rs = statement.executeQuery()) {
                    while (rs.next()) {
                        out.add(mapper.map(rs));
                    }
                }
                succeeded = true;
                return out;
            } finally {
                jdbc.release(sql, statement, succeeded);
            }
        } catch (SQLException e) {
            throw translate(e, sql);
        }
    }

    static <T> Optional<T> one(Tx tx, String sql, RowMapper<T> mapper, Object... args) {
        List<T> rows = list(tx, sql, mapper, args);
        if (rows.size() > 1) {
            throw new StoreException("expected at most one row: " + sql, null);
        }
        return rows.stream().findFirst();
    }

    static long count(Tx tx, String sql, Object... args) {
        return one(tx, sql, rs -> rs.getLong(1), args).orElse(0L);
    }

    static boolean exists(Tx tx, String sql, Object... args) {
        return !list(tx, sql, rs -> Boolean.TRUE, args).isEmpty();
    }

    static long micros(Instant instant) {
        return ChronoUnit.MICROS.between(Instant.EPOCH, instant);
    }

    static Instant instant(long micros) {
        return Instant.EPOCH.plus(micros, ChronoUnit.MICROS);
    }

    static Instant instant(ResultSet rs, String column) throws SQLException {
        return instant(rs.getLong(column));
    }

    static Optional<Instant> optionalInstant(ResultSet rs, String column) throws SQLException {
        long value = rs.getLong(column);
        return rs.wasNull() ? Optional.empty() : Optional.of(instant(value));
    }

    static Optional<Long> optionalLong(ResultSet rs, String column) throws SQLException {
        long value = rs.getLong(column);
        return rs.wasNull() ? Optional.empty() : Optional.of(value);
    }

    /**
     * Locks the organization's row until the transaction ends, so that limit checks of concurrent writers to the
     * same organization run one after another. SQLite needs no row lock: its writers are serialised already.
     */
    static void lockOrganization(Tx tx, String organizationId) {
        Dialect dialect = JdbcTx.of(tx).dialect();
        if (dialect == Dialect.POSTGRESQL) {
            list(
                    tx,
                    "SELECT id FROM organizations WHERE id = ?" + dialect.forUpdate(),
                    rs -> rs.getString(1),
                    organizationId);
        }
    }

    /** {@code ?, ?, ?} for an IN list of {@code n} values. */
    static String placeholders(int n) {
        return String.join(", ", java.util.Collections.nCopies(n, "?"));
    }

    /** The statement for {@code sql} with {@code args} bound; on a failure it is given back, not to be reused. */
    private static PreparedStatement prepare(JdbcTx tx, String sql, Object... args) throws SQLException {
        PreparedStatement statement = tx.statement(sql);
        try {
            for (int i = 0; i < args.length; i++) {
                bind(statement, i + 1, args[i]);
            }
            return statement;
        } catch (SQLException | RuntimeException e) {
            tx.release(sql, statement, false);
            throw e;
        }
    }

    /**
     * Text found {@linkplain #storable storable} already, which binding does not check again: checked where the work
     * runs in parallel (on the request's thread) rather than in a store's serial writer.
     */
    record Checked(String text) {}

    /** {@code value} with its text (also inside an {@code Optional}) checked now, to bind later as it is. */
    static Object checked(Object value) {
        return switch (value) {
            case String s -> new Checked(storable(s));
            case Optional<?> optional -> optional.map(Sql::checked);
            case null, default -> value;
        };
    }

    private static void bind(PreparedStatement statement, int index, Object arg) throws SQLException {
        Object value = arg instanceof Optional<?> optional ? optional.orElse(null) : arg;
        switch (value) {
            case null -> statement.setObject(index, null);
            case Checked c -> statement.setString(index, c.text());
            case String s -> statement.setString(index, storable(s));
            case Long l -> statement.setLong(index, l);
            case Integer n -> statement.setInt(index, n);
            case Boolean b -> statement.setBoolean(index, b);
            case Instant t -> statement.setLong(index, micros(t));
            default -> throw new IllegalArgumentException("cannot bind " + value.getClass());
        }
    }

    /**
     * Text that the two stores would not keep alike (PostgreSQL refuses NUL, the drivers mangle unpaired surrogates)
     * is refused on both, whichever way it came in; request bodies are checked before this ({@code JsonBody}).
     */
    static String storable(String text) {
        TextFlaws.of(text).ifPresent(flaw -> {
            throw ApiException.badRequest("text with " + flaw + " cannot be stored");
        });
        return text;
    }

    static RuntimeException translate(SQLException e, String sql) {
        if (isConstraintViolation(e)) {
            return new Transactor.ConstraintViolation("constraint violated: " + e.getMessage(), e);
        }
        if (DatabaseOutage.causedBy(e)) {
            return DatabaseOutage.error();
        }
        return new StoreException("database error: " + e.getMessage(), e);
    }

    /** A unique (23505) or foreign-key (23503) violation, in either store. */
    private static boolean isConstraintViolation(SQLException e) {
        if ("23505".equals(e.getSQLState()) || "23503".equals(e.getSQLState())) {
            return true;
        }
        return e instanceof SQLiteException s
                && (s.getResultCode() == SQLiteErrorCode.SQLITE_CONSTRAINT_UNIQUE
                        || s.getResultCode() == SQLiteErrorCode.SQLITE_CONSTRAINT_PRIMARYKEY
                        || s.getResultCode() == SQLiteErrorCode.SQLITE_CONSTRAINT_FOREIGNKEY);
    }
}
