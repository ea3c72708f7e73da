/**
 * Cryptographic building blocks of Keyhaven: curves, signature verification and creation, digests and the
 * {@link dev.keyhaven.crypto.SecretBytes} holder for key material. Everything is pure computation on top of
 * BouncyCastle's lightweight API and the JDK; nothing here does I/O or knows about HTTP, storage or the wire format.
 */
package dev.keyhaven.crypto;
