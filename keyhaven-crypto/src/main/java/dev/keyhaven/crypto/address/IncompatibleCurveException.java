package dev.keyhaven.crypto.address;

import dev.keyhaven.crypto.KeyCurve;

/**
 * A key's curve cannot have an address in the requested format, e.g. an Ed25519 key with
 * {@code ADDRESS_FORMAT_ETHEREUM}. Turnkey fails such an activity as an invalid argument; so should callers.
 */
public final class IncompatibleCurveException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    private final AddressFormat format;
    private final KeyCurve curve;

    public IncompatibleCurveException(AddressFormat format, KeyCurve curve) {
        super("address format " + format.wireName() + " does not support curve CURVE_" + curve.name());
        this.format = format;
        this.curve = curve;
    }

    public AddressFormat format() {
        return format;
    }

    public KeyCurve curve() {
        return curve;
    }
}
