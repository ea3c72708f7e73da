package dev.keyhaven.policy;

import java.util.Objects;

/** {@code string}. Indexing and slicing count Unicode code points, not UTF-16 units or bytes. */
public record StringValue(String value) implements Value {
    public StringValue {
        Objects.requireNonNull(value, "value");
    }

    @Override
    public String typeName() {
        return "string";
    }
}
