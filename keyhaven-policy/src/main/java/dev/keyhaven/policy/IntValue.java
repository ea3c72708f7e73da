package dev.keyhaven.policy;

import java.math.BigInteger;
import java.util.Objects;

/**
 * An integer. Turnkey has two integer types, {@code int} (i128) and {@code uint} (u256), which compare with each other
 * freely; one type covering the union of their ranges, [-2^127, 2^256 - 1], behaves the same for a language without
 * arithmetic.
 */
public record IntValue(BigInteger value) implements Value {
    public static final BigInteger MIN = BigInteger.ONE.shiftLeft(127).negate();
    public static final BigInteger MAX = BigInteger.ONE.shiftLeft(256).subtract(BigInteger.ONE);

    /** @throws IllegalArgumentException if the value is outside [{@link #MIN}, {@link #MAX}] */
    public IntValue {
        Objects.requireNonNull(value, "value");
        if (!inRange(value)) {
            throw new IllegalArgumentException("integer outside the range of i128 and u256: " + value);
        }
    }

    public static boolean inRange(BigInteger value) {
        return value.compareTo(MIN) >= 0 && value.compareTo(MAX) <= 0;
    }

    @Override
    public String typeName() {
        return "int";
    }
}
