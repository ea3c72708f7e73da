/**
 * Signatures over caller-supplied payloads, the core of {@code sign_raw_payload}: ECDSA over a 32-byte digest on
 * secp256k1 or P-256 with a recovery id, pure Ed25519 over the message, and public-key recovery. Hashing the payload
 * (and EIP-712 / EIP-7702 encodings) happens before this package is called; see {@code dev.keyhaven.crypto.eth}.
 */
package dev.keyhaven.crypto.sign;
