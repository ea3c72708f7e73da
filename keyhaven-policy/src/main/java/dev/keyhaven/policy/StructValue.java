package dev.keyhaven.policy;

import java.util.Map;

/**
 * A struct: named fields, read with {@code x.field} or {@code x['field']}. Absent fields are simply not in the map;
 * reading one is a {@code MISSING_FIELD} error, which is how Turnkey reports a field an activity does not populate.
 */
public record StructValue(Map<String, Value> fields) implements Value {
    /** Copies and rejects null keys and values. */
    public StructValue {
        fields = Map.copyOf(fields);
    }

    @Override
    public String typeName() {
        return "struct";
    }
}
