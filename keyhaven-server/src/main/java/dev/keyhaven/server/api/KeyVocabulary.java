package dev.keyhaven.server.api;

import dev.keyhaven.crypto.KeyCurve;
import dev.keyhaven.crypto.address.AddressFormat;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * Reads curves ({@code CURVE_SECP256K1}) and address formats ({@code ADDRESS_FORMAT_ETHEREUM}) from requests. The
 * enums live in {@code keyhaven-crypto} (which knows their wire names but not {@link WireEnum}); this adds the
 * field-naming 400s every other wire enum gets from {@link Params}.
 */
public final class KeyVocabulary {
    private KeyVocabulary() {}

    /** A required {@code CURVE_*} member. */
    public static KeyCurve requiredCurve(Params p, String name) {
        return read(p.requiredString(name), p.pathOf(name), KeyCurve::fromWire, KeyCurve.values(), KeyCurve::wireName);
    }

    /** A required {@code ADDRESS_FORMAT_*} member. */
    public static AddressFormat requiredAddressFormat(Params p, String name) {
        return read(
                p.requiredString(name),
                p.pathOf(name),
                AddressFormat::fromWire,
                AddressFormat.values(),
                AddressFormat::wireName);
    }

    /** A required array of {@code ADDRESS_FORMAT_*} values (may be empty). */
    public static List<AddressFormat> requiredAddressFormats(Params p, String name) {
        List<String> values = p.requiredStrings(name);
        return IntStream.range(0, values.size())
                .mapToObj(i -> read(
                        values.get(i),
                        p.pathOf(name) + "[" + i + "]",
                        AddressFormat::fromWire,
                        AddressFormat.values(),
                        AddressFormat::wireName))
                .toList();
    }

    private static <E> E read(
            String value, String field, Function<String, Optional<E>> fromWire, E[] all, Function<E, String> wireName) {
        return fromWire.apply(value)
                .orElseThrow(() -> ApiException.badField(
                        field,
                        "has unknown value '"
                                + (value.length() <= 64 ? value : value.substring(0, 64) + "…") + "' (expected one of "
                                + Arrays.stream(all).map(wireName).collect(Collectors.joining(", ")) + ")"));
    }
}
