package dev.keyhaven.server.wallet;

import dev.keyhaven.crypto.KeyCurve;
import dev.keyhaven.crypto.address.AddressFormat;
import java.time.Instant;
import java.util.Optional;

/**
 * One account of a wallet: a key derived at {@code path} on {@code curve}, shown as an address in
 * {@code addressFormat}. {@code path} is what the client sent; {@code canonicalPath} is its normalised form, which
 * identifies the derivation.
 *
 * @param publicKey lowercase hex: 33-byte compressed for ECDSA curves, 32 bytes for Ed25519
 */
public record WalletAccount(
        String id,
        String organizationId,
        String walletId,
        KeyCurve curve,
        String path,
        String canonicalPath,
        AddressFormat addressFormat,
        String address,
        String publicKey,
        Optional<String> name,
        boolean exported,
        Instant createdAt,
        Instant updatedAt) {}
