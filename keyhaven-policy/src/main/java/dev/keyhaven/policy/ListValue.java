package dev.keyhaven.policy;

import java.util.List;

/** {@code list<T>}. The language does not enforce one element type; comparisons check types as they meet them. */
public record ListValue(List<Value> elements) implements Value {
    public static final ListValue EMPTY = new ListValue(List.of());

    /** Copies (a no-op for lists that are already unmodifiable copies) and rejects nulls. */
    public ListValue {
        elements = List.copyOf(elements);
    }

    @Override
    public String typeName() {
        return "list";
    }
}
