package dev.keyhaven.server.tx;

/**
 * An open database transaction. Repositories are stateless and receive it on every call, so every read and write of
 * one activity provably happens in the same transaction.
 */
public interface Tx {}
