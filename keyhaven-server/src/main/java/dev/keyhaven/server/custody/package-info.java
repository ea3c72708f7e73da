/**
 * Custody of key material: the key-encryption key (KEK), sealing and opening of mnemonics and private keys with
 * AES-256-GCM bound to their organization and resource, derivation of account keys, and signing. Code outside this
 * package and {@code keyhaven-crypto} holds sealed blobs and public keys, never private key bytes.
 */
package dev.keyhaven.server.custody;
