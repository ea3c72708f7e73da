/**
 * What Keyhaven understands of each chain's transactions, one package per chain: parsing hostile bytes into a
 * transaction (or a {@link dev.keyhaven.chains.TransactionFormatException}), what a key signs, where the signature goes
 * in the signed form the chain's own tools accept, and the value policies read ({@code eth.tx}, {@code solana.tx},
 * {@code tron.tx}, {@code bitcoin.tx}) with its declared {@link dev.keyhaven.policy.ValueType}. Pure computation: no
 * I/O, and no private key (keys stay in the server's custody, which signs the digests and messages given here).
 */
package dev.keyhaven.chains;
