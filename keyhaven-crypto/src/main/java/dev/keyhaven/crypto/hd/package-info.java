/**
 * Hierarchical deterministic keys: BIP-39 mnemonics ({@link dev.keyhaven.crypto.hd.Mnemonic}) and their seeds,
 * BIP-32 paths ({@link dev.keyhaven.crypto.hd.DerivationPath}), and private key derivation from a seed
 * ({@link dev.keyhaven.crypto.hd.HdKeys}): BIP-32 for secp256k1, SLIP-0010 for P-256 and Ed25519. Mnemonics, seeds
 * and keys only ever leave this package as {@link dev.keyhaven.crypto.SecretBytes}.
 */
package dev.keyhaven.crypto.hd;
