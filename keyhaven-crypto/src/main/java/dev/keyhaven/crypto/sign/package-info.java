/**
 * Signatures over caller-supplied payloads, the core of {@code sign_raw_payload}: ECDSA over a 32-byte digest on
 * secp256k1 or P-256 with a recovery id, pure Ed25519 over the message, and public-key recovery; and BIP-340 Schnorr
 * with the BIP-86 taproot tweak for Bitcoin key-path inputs (BouncyCastle has no BIP-340 signer, so
 * {@link dev.keyhaven.crypto.sign.Bip340Schnorr} follows the BIP over its point arithmetic). Hashing the payload
 * (and EIP-712 / EIP-7702 encodings, Bitcoin sighashes) happens before this package is called; see
 * {@code dev.keyhaven.crypto.eth} and {@code dev.keyhaven.chains}.
 */
package dev.keyhaven.crypto.sign;
