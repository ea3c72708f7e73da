package dev.keyhaven.server.api;

import dev.keyhaven.crypto.KeyCurve;
import dev.keyhaven.crypto.address.AddressFormat;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The wire names of curves ({@code CURVE_SECP256K1}) and address formats ({@code ADDRESS_FORMAT_ETHEREUM}). The
 * enums themselves live in {@code keyhaven-crypto} without the prefixes; this is the one place that adds and strips
 * them, so the two vocabularies cannot drift apart.
 */
public final class KeyVocabulary {
    private static final String CURVE = "CURVE_";
    private static final String ADDRESS_FORMAT = "ADDRESS_FORMAT_";

    private KeyVocabulary() {
    }

    public static String wireName(KeyCurve curve) {
        return CURVE + curve.name();
    }

    public static String wireName(AddressFormat format) {
        return ADDRESS_FORMAT + format.name();
    }

    public static Optional<KeyCurve> curve(String wire) {
        return fromWire(KeyCurve.class, CURVE, wire);
    }

    public static Optional<AddressFormat> addressFormat(String wire) {
        return fromWire(AddressFormat.class, ADDRESS_FORMAT, wire);
    }

    /** A required {@code CURVE_*} member. */
    public static KeyCurve requiredCurve(Params p, String name) {
        String value = p.requiredString(name);
        return curve(value).orElseThrow(() -> unknown(p.pathOf(name), value, KeyCurve.class, CURVE));
    }

    /** A required {@code ADDRESS_FORMAT_*} member. */
    public static AddressFormat requiredAddressFormat(Params p, String name) {
        String value = p.requiredString(name);
        return addressFormat(value).orElseThrow(() -> unknown(p.pathOf(name), value, AddressFormat.class,
                ADDRESS_FORMAT));
    }

    /** A required array of {@code ADDRESS_FORMAT_*} values (may be empty). */
    public static List<AddressFormat> requiredAddressFormats(Params p, String name) {
        List<String> values = p.requiredStrings(name);
        return java.util.stream.IntStream.range(0, values.size())
                .mapToObj(i -> addressFormat(values.get(i)).orElseThrow(() -> unknown(p.pathOf(name) + "[" + i + "]",
                        values.get(i), AddressFormat.class, ADDRESS_FORMAT)))
                .toList();
    }

    private static <E extends Enum<E>> Optional<E> fromWire(Class<E> type, String prefix, String wire) {
        if (wire == null || !wire.startsWith(prefix)) {
            return Optional.empty();
        }
        String name = wire.substring(prefix.length());
        return Arrays.stream(type.getEnumConstants()).filter(e -> e.name().equals(name)).findFirst();
    }

    private static <E extends Enum<E>> ApiException unknown(String field, String value, Class<E> type,
            String prefix) {
        String shown = value.length() <= 64 ? value : value.substring(0, 64) + "…";
        return ApiException.badField(field, "has unknown value '" + shown + "' (expected one of "
                + Arrays.stream(type.getEnumConstants()).map(e -> prefix + e.name()).collect(Collectors.joining(", "))
                + ")");
    }
}
