package dev.keyhaven.policy;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/** {@link ValueType#mismatch}: walks a value beside its declared type. */
final class Shapes {
    private Shapes() {}

    static Optional<String> mismatch(ValueType type, Value value, String path) {
        if (value instanceof UnreadableValue || type instanceof ValueType.Any) {
            return Optional.empty();
        }
        return switch (type) {
            case ValueType.Scalar scalar ->
                scalar.name().equals(value.typeName())
                        ? Optional.empty()
                        : Optional.of(path + ": " + Printer.typeOf(value) + " is not a " + scalar.name());
            case ValueType.ListOf(ValueType element) -> {
                if (!(value instanceof ListValue(List<Value> elements))) {
                    yield Optional.of(path + ": " + Printer.typeOf(value) + " is not a list");
                }
                for (int i = 0; i < elements.size(); i++) {
                    Optional<String> inner = mismatch(element, elements.get(i), path + "[" + i + "]");
                    if (inner.isPresent()) {
                        yield inner;
                    }
                }
                yield Optional.empty();
            }
            case ValueType.StructOf(Map<String, ValueType> fields) -> {
                if (!(value instanceof StructValue(Map<String, Value> actual))) {
                    yield Optional.of(path + ": " + Printer.typeOf(value) + " is not a struct");
                }
                for (Map.Entry<String, Value> field : actual.entrySet()) {
                    ValueType declared = fields.get(field.getKey());
                    Optional<String> inner = declared == null
                            ? Optional.of(path + "." + field.getKey() + ": not declared")
                            : mismatch(declared, field.getValue(), path + "." + field.getKey());
                    if (inner.isPresent()) {
                        yield inner;
                    }
                }
                yield Optional.empty();
            }
            case ValueType.MapOf(ValueType values) -> {
                if (!(value instanceof StructValue(Map<String, Value> actual))) {
                    yield Optional.of(path + ": " + Printer.typeOf(value) + " is not a map");
                }
                for (Map.Entry<String, Value> entry : actual.entrySet()) {
                    Optional<String> inner = mismatch(values, entry.getValue(), path + "['" + entry.getKey() + "']");
                    if (inner.isPresent()) {
                        yield inner;
                    }
                }
                yield Optional.empty();
            }
            case ValueType.Any _ -> Optional.empty();
        };
    }
}
