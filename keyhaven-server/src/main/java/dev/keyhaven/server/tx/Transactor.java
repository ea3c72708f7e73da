package dev.keyhaven.server.tx;

/** Runs units of work in transactions. */
public interface Transactor {

    /**
     * Runs {@code work} in a read-write transaction and commits it when {@code work} returns; any exception rolls
     * everything back and is rethrown. When this method returns, the commit is durable.
     */
    <T> T write(TxWork<T> work);

    /**
     * Like {@link #write}, for a short write that waits for no lock held by others (it only adds rows and reads):
     * the store may run it in one transaction with concurrent grouped writes and commit them together. It still
     * commits or rolls back on its own, and may run more than once before it commits (keep effects outside the
     * transaction idempotent).
     */
    default <T> T writeGrouped(TxWork<T> work) {
        return write(work);
    }

    /** Runs {@code work} in a read-only transaction with a consistent view of the data. */
    <T> T read(TxWork<T> work);

    /**
     * Like {@link #read}, for work that runs exactly one statement: a single statement sees a consistent view by
     * itself, so the store may run it without an explicit transaction (saving the transaction's {@code BEGIN} and
     * {@code COMMIT}; on PostgreSQL, a round trip). Work that runs more than one statement must use {@link #read}.
     */
    default <T> T readStatement(TxWork<T> work) {
        return read(work);
    }

    /**
     * Thrown when a write violates a uniqueness or foreign-key constraint: the data changed concurrently (an
     * identical submission recorded first, a referenced row deleted, a unique name taken in the meantime).
     */
    final class ConstraintViolation extends RuntimeException {
        private static final long serialVersionUID = 1L;

        public ConstraintViolation(String message, Throwable cause) {
            super(message, cause);
        }
    }
}
