package dev.keyhaven.server.store;

/** The SQL differences between the two stores, kept to the few places that need them. */
enum Dialect {
    /**
     * The embedded store. One writer at a time (an in-process lock), so row locks are unnecessary and SQLite does
     * not support them.
     */
    SQLITE(""),
    /**
     * {@code FOR NO KEY UPDATE}, not {@code FOR UPDATE}: a transaction that inserts a row referencing the locked one
     * (an activity of the organization) holds {@code FOR KEY SHARE} on it through the foreign key check, which
     * {@code FOR UPDATE} waits for. Two concurrent activities of one organization, each having inserted its activity
     * row before locking the organization, would then wait for each other: a deadlock. {@code FOR NO KEY UPDATE}
     * still serialises the lockers and writers of the row, and lets foreign-key checks through.
     */
    POSTGRESQL(" FOR NO KEY UPDATE");

    private final String forUpdate;

    Dialect(String forUpdate) {
        this.forUpdate = forUpdate;
    }

    /**
     * The suffix that locks the selected rows until the transaction ends against other lockers and writers (but not
     * against inserts that merely reference them).
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
