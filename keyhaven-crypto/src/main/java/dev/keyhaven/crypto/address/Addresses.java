package dev.keyhaven.crypto.address;

import dev.keyhaven.crypto.KeyCurve;
import java.util.Map;
import java.util.Objects;

/** The entry point: the address of a public key in a given format, and the lookup key of an address string. */
public final class Addresses {
    private static final Map<AddressFormat, AddressEncoder> ENCODERS = EncoderRegistry.all();

    private Addresses() {}

    /**
     * The address of {@code publicKey} in {@code format}.
     *
     * @param publicKey 33-byte compressed or 65-byte uncompressed SEC1 for ECDSA curves (validated on the curve),
     *     32 bytes for Ed25519
     * @throws IncompatibleCurveException when the format does not accept keys on {@code curve}
     * @throws IllegalArgumentException when the key is malformed or not a point of the curve
     */
    public static String encode(AddressFormat format, KeyCurve curve, byte[] publicKey) {
        Objects.requireNonNull(format, "format");
        Objects.requireNonNull(curve, "curve");
        Objects.requireNonNull(publicKey, "publicKey");
        if (!format.supports(curve)) {
            throw new IncompatibleCurveException(format, curve);
        }
        return ENCODERS.get(format).encode(curve, publicKey);
    }

    /**
     * A normalised lookup key for an address string a client sends back (e.g. as {@code signWith}): lowercase for the
     * {@code 0x}-hex formats (Ethereum, Sui, Aptos); for TON the canonical bounceable url-safe mainnet form when given
     * the raw {@code 0:<hex>}, non-bounceable, testnet-flagged or standard-base64 forms; otherwise the string
     * unchanged.
     */
    public static String lookupKey(String address) {
        return LookupKeys.of(Objects.requireNonNull(address, "address"));
    }
}
