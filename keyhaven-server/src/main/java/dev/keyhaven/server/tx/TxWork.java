package dev.keyhaven.server.tx;

/** A unit of work run inside a transaction. */
@FunctionalInterface
public interface TxWork<T> {
    T run(Tx tx);
}
