package dev.keyhaven.policy;

/** {@code bool}. Use {@link Value#of(boolean)}, which returns one of the two shared instances. */
public record BoolValue(boolean value) implements Value {
    public static final BoolValue TRUE = new BoolValue(true);
    public static final BoolValue FALSE = new BoolValue(false);

    @Override
    public String typeName() {
        return "bool";
    }
}
