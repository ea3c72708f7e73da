package dev.keyhaven.server.store;

/** The SQL differences between the two stores, kept to the few places that need them. */
enum Dialect {
    /**
     * The embedded store. One writer at a time (an in-process lock), so row locks are unnecessary and SQLite does
     * not support them.
     */
    SQLITE(""),
    POSTGRESQL(" FOR UPDATE");

    private final String forUpdate;

    Dialect(String forUpdate) {
        this.forUpdate = forUpdate;
    }

    /** The suffix that locks the selected rows until the transaction ends. */
    String forUpdate() {
        return forUpdate;
    }

    static Dialect of(String jdbcUrl) {
        if (jdbcUrl.startsWith("jdbc:sqlite:")) {
            return SQLITE;
        }
        if (jdbcUrl.startsWith("jdbc:postgresql:")) {
            return POSTGRESQL;
        }
        throw new IllegalArgumentException("unsupported database URL (use jdbc:sqlite:FILE or jdbc:postgresql://...): "
                + jdbcUrl.replaceAll("password=[^&]*", "password=***"));
    }
}
