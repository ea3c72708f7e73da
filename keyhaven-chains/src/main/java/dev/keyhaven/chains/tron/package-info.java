/**
 * Tron transactions: TronWeb's {@code raw_data_hex} (the protobuf {@code Transaction.raw}) parsed strictly, the
 * SHA-256 digest a key signs (the transaction id), the signed {@code Transaction} that {@code /wallet/broadcasthex}
 * takes, and {@code tron.tx}, what policies read of it. Entry point: {@link dev.keyhaven.chains.tron.TronTransaction}.
 */
package dev.keyhaven.chains.tron;
