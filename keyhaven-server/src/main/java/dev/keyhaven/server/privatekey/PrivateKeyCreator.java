package dev.keyhaven.server.privatekey;

import dev.keyhaven.crypto.KeyCurve;
import dev.keyhaven.crypto.address.AddressFormat;
import dev.keyhaven.crypto.address.Addresses;
import dev.keyhaven.server.api.ApiException;
import dev.keyhaven.server.api.ErrorCode;
import dev.keyhaven.server.custody.DerivedKey;
import dev.keyhaven.server.tx.Tx;
import java.time.Instant;
import java.util.HexFormat;
import java.util.List;

/**
 * The rules and the rows of a new private key, generated ({@code create_private_keys}) or imported
 * ({@code import_private_key}): the organization's limit, a unique name, address formats that suit the curve.
 */
public final class PrivateKeyCreator {
    /** Private keys per organization, as the real service limits them. */
    public static final int MAX_PRIVATE_KEYS_PER_ORGANIZATION = 1000;

    private final PrivateKeyRepository keys;

    public PrivateKeyCreator(PrivateKeyRepository keys) {
        this.keys = keys;
    }

    /** Fails with 429-style LIMIT_EXCEEDED when {@code adding} more keys would pass the organization's limit. */
    public void requireRoomFor(Tx tx, String organizationId, int adding) {
        if (keys.count(tx, organizationId) + adding > MAX_PRIVATE_KEYS_PER_ORGANIZATION) {
            throw new ApiException(
                    ErrorCode.LIMIT_EXCEEDED,
                    "organization has exceeded maximum private keys (" + MAX_PRIVATE_KEYS_PER_ORGANIZATION + ")");
        }
    }

    /** Checks a new key's name (unique in the organization) and formats (each suits the curve); 400 otherwise. */
    public void requireValid(
            Tx tx, String organizationId, String label, String name, KeyCurve curve, List<AddressFormat> formats) {
        if (keys.nameTaken(tx, organizationId, name)) {
            throw ApiException.badRequest(label + "a private key named '" + name + "' already exists");
        }
        for (AddressFormat format : formats) {
            if (!format.supports(curve)) {
                throw ApiException.badRequest(
                        label + "address format " + format.wireName() + " does not support curve " + curve.wireName());
            }
        }
    }

    /** Stores the key with its addresses and returns them as the results report them. */
    public List<WireAddress> store(
            Tx tx,
            String organizationId,
            String id,
            String name,
            KeyCurve curve,
            List<AddressFormat> formats,
            DerivedKey key,
            boolean imported,
            Instant now) {
        List<PrivateKeyAddress> addresses = formats.stream()
                .map(f -> new PrivateKeyAddress(f, Addresses.encode(f, curve, key.publicKey())))
                .toList();
        keys.insert(
                tx,
                new PrivateKey(
                        id,
                        organizationId,
                        name,
                        curve,
                        HexFormat.of().formatHex(PrivateKeyPublicKeys.reported(curve, key.publicKey())),
                        addresses,
                        false,
                        imported,
                        now,
                        now),
                key.sealedKey());
        return addresses.stream()
                .map(a -> new WireAddress(a.format().wireName(), a.address()))
                .toList();
    }

    /** {@code immutableactivityv1Address}. */
    public record WireAddress(String format, String address) {}
}
