package dev.keyhaven.server.activity;

import dev.keyhaven.server.api.Params;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.function.UnaryOperator;

/**
 * Every version of one operation that Keyhaven accepts, newest first, in one table: for each {@code type}, the keys
 * its intent and result travel under, the reader that turns that version's parameters into the operation's one
 * validated form, and, for an older version whose result had another shape, how the result is shown to its clients.
 * Handlers, authorization and policies only ever see the validated form; the stored intent keeps the shape the client
 * sent, as Turnkey's does.
 *
 * @param <P> the validated parameters every version is read into
 */
public final class VersionTable<P> {

    /** One row: a version and how its parameters are read. */
    public record Row<P>(ActivityVersion version, Function<Params, P> reader) {}

    private final List<Row<P>> rows;

    private VersionTable(List<Row<P>> rows) {
        if (rows.isEmpty()) {
            throw new IllegalArgumentException("an operation accepts at least one version");
        }
        this.rows = List.copyOf(rows);
    }

    @SafeVarargs
    public static <P> VersionTable<P> of(Row<P>... rows) {
        List<Row<P>> list = new ArrayList<>(rows.length);
        for (Row<P> row : rows) {
            list.add(row);
        }
        return new VersionTable<>(list);
    }

    /** A version whose result has the current shape. */
    public static <P> Row<P> version(
            ActivityType type, String intentKey, String resultKey, Function<Params, P> reader) {
        return new Row<>(new ActivityVersion(type, intentKey, resultKey), reader);
    }

    /** A version whose clients expect the result in another shape, made from the current result by {@code view}. */
    public static <P> Row<P> version(
            ActivityType type,
            String intentKey,
            String resultKey,
            UnaryOperator<Object> view,
            Function<Params, P> reader) {
        return new Row<>(new ActivityVersion(type, intentKey, resultKey, view), reader);
    }

    /** The versions, newest first, for the operation's {@link ActivitySpec}. */
    public List<ActivityVersion> versions() {
        return rows.stream().map(Row::version).toList();
    }

    /**
     * Reads the parameters of an activity of {@code type}.
     *
     * @throws IllegalArgumentException when the table has no such version (the envelope has already refused it)
     */
    public P read(Params parameters, ActivityType type) {
        return rows.stream()
                .filter(row -> row.version().type() == type)
                .findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no version " + type + " in this table"))
                .reader()
                .apply(parameters);
    }
}
