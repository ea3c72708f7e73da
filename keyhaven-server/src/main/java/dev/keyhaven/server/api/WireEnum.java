package dev.keyhaven.server.api;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/** An enum whose constants travel as strings on the wire. */
public interface WireEnum {

    /** The exact string the wire uses for this constant. */
    String wireName();

    /** The constant of {@code type} whose wire name is {@code wire}, if any. */
    @SuppressWarnings("unchecked")
    static <E extends Enum<E> & WireEnum> Optional<E> fromWire(Class<E> type, String wire) {
        return Optional.ofNullable((E) Lookup.TABLES.get(type).get(wire));
    }

    /** Per-enum lookup tables, built once per class. */
    final class Lookup {
        private static final ClassValue<Map<String, Object>> TABLES = new ClassValue<>() {
            @Override
            protected Map<String, Object> computeValue(Class<?> type) {
                Map<String, Object> table = new HashMap<>();
                for (Object constant : type.getEnumConstants()) {
                    table.put(((WireEnum) constant).wireName(), constant);
                }
                return Map.copyOf(table);
            }
        };

        private Lookup() {}
    }
}
