package dev.keyhaven.server.store;

/** The SQL differences between the two stores, kept to the few places that need them. */
enum Dialect {
    /**
     * The embedded store. One writer at a time (an in-process lock), so row locks are unnecessary and SQLite does
     * not support them.
     */
    SQLITE("", ""),
    POSTGRESQL(" FOR NO KEY UPDATE", " FOR UPDATE SKIP LOCKED");

    private final String forUpdate;
    private final String skipLocked;

    Dialect(String forUpdate, String skipLocked) {
        this.forUpdate = forUpdate;
        this.skipLocked = skipLocked;
    }

    /**
     * The suffix that locks the selected rows and passes over those another transaction holds (work queues: several
     * servers claim different rows without waiting for each other).
     */
    String skipLocked() {
        return skipLocked;
    }

    /**
     * The suffix that locks the selected rows until the transaction ends. PostgreSQL's {@code NO KEY UPDATE} still
     * serialises the lockers, but does not conflict with the {@code KEY SHARE} locks that inserts referencing the
     * row take for their foreign keys; a plain {@code FOR UPDATE} would deadlock two transactions that each inserted
     * an activity of the organization and then lock the organization.
     */
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
