/**
 * Bitcoin PSBTs (BIP-174, version 0) for {@code TRANSACTION_TYPE_BITCOIN}: which inputs a key spends and the legacy,
 * BIP-143 or BIP-341 hash each signs, the PSBT with the signatures put in (partial_sigs, tap_key_sig; not finalised),
 * and {@code bitcoin.tx} for policies. bitcoin-kmp reads and writes PSBTs and computes sighashes, without its native
 * secp256k1: taproot keys are tweaked with keyhaven-crypto, and only custody signs. A PSBT is refused unless kmp
 * writes it back entry for entry, so the signed PSBT differs from the one received by the signatures alone.
 */
package dev.keyhaven.chains.bitcoin;
