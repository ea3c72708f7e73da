/**
 * Ethereum payload encodings that turn a structured {@code sign_raw_payload} request into the 32-byte digest to sign:
 * EIP-712 typed data ({@link dev.keyhaven.crypto.eth.Eip712}), EIP-7702 set-code authorizations
 * ({@link dev.keyhaven.crypto.eth.Eip7702}) and the RLP encoding the latter needs. Input arrives as already-parsed
 * JSON (maps, lists, strings, numbers, booleans); hashing comes from {@link dev.keyhaven.crypto.Digests}.
 */
package dev.keyhaven.crypto.eth;
