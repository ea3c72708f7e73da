/**
 * Transactions as the rest of the server sees them: an opaque {@link dev.keyhaven.server.tx.Tx} handle that
 * repositories take as their first argument, and the {@link dev.keyhaven.server.tx.Transactor} that runs a unit of
 * work in one. Only the store knows what is behind the handle.
 */
package dev.keyhaven.server.tx;
