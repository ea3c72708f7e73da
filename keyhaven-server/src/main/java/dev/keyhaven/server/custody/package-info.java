/**
 * Custody of key material: the key-encryption key (KEK), sealing and opening of mnemonics and private keys with
 * AES-256-GCM bound to their organization and resource, derivation of account keys, and handles with narrow
 * operations (sign, MAC, HPKE open and seal, AEAD, JWTs through Nimbus) that features use instead of bytes. Code
 * outside this package and {@code keyhaven-crypto} holds sealed blobs, public keys and handles, never private key
 * bytes, and cannot read a {@code SecretBytes} ({@code SecretKeyAccess}). The protocols built on these operations
 * (OTP bundles, OAuth 2.0 client secrets, webhook signatures, token claims) live in their features; this package
 * knows none of them. See docs/decisions/custody-handles.md.
 */
package dev.keyhaven.server.custody;
