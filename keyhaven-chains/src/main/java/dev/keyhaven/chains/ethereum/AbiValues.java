package dev.keyhaven.chains.ethereum;

import com.esaulpaugh.headlong.abi.ABIType;
import com.esaulpaugh.headlong.abi.Address;
import com.esaulpaugh.headlong.abi.ArrayType;
import com.esaulpaugh.headlong.abi.Tuple;
import com.esaulpaugh.headlong.abi.TupleType;
import dev.keyhaven.policy.IntValue;
import dev.keyhaven.policy.Value;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;

/**
 * Decoded ABI values as policies read them: integers as ints, {@code address} as a lowercase {@code 0x} string,
 * {@code bool} as bool, {@code bytes} and {@code bytesN} as {@code 0x} hex strings, {@code string} as a string,
 * arrays as lists and tuples as lists by position (Turnkey's {@code call[0]}). What the language cannot hold is
 * bound as unreadable, so a policy about it fails closed: an {@code int256} below -2^127, and fixed-point numbers
 * (which Solidity cannot use yet, and whose meaning as an int would be a guess).
 */
final class AbiValues {
    private static final int ADDRESS_LENGTH = 20;

    private AbiValues() {}

    /** The value of {@code decoded}, which headlong decoded as {@code type}. */
    static Value of(ABIType<?> type, Object decoded) {
        return switch (type.typeCode()) {
            case ABIType.TYPE_CODE_BOOLEAN -> Value.of((Boolean) decoded);
            case ABIType.TYPE_CODE_INT -> Value.of((Integer) decoded);
            case ABIType.TYPE_CODE_LONG -> Value.of((Long) decoded);
            case ABIType.TYPE_CODE_BIG_INTEGER -> integer((BigInteger) decoded);
            case ABIType.TYPE_CODE_BIG_DECIMAL ->
                Value.unreadable(
                        "a " + type.getCanonicalType() + " argument: Keyhaven does not read fixed-point numbers");
            case ABIType.TYPE_CODE_ADDRESS -> Value.of(address((Address) decoded));
            case ABIType.TYPE_CODE_ARRAY -> array(type.asArrayType(), decoded);
            case ABIType.TYPE_CODE_TUPLE -> tuple(type.asTupleType(), (Tuple) decoded);
            default ->
                throw new IllegalStateException("headlong decoded an unexpected type " + type.getCanonicalType());
        };
    }

    private static Value integer(BigInteger value) {
        return IntValue.inRange(value)
                ? Value.of(value)
                : Value.unreadable("an integer below -2^127, outside the policy language's int and uint");
    }

    private static String address(Address address) {
        byte[] bytes = new byte[ADDRESS_LENGTH];
        byte[] magnitude = address.value().toByteArray();
        // toByteArray is minimal and may carry a leading sign byte; right-align the last 20 bytes.
        int length = Math.min(magnitude.length, ADDRESS_LENGTH);
        System.arraycopy(magnitude, magnitude.length - length, bytes, ADDRESS_LENGTH - length, length);
        return Hex.prefixed(bytes);
    }

    private static Value array(ArrayType<?, ?, ?> type, Object decoded) {
        if (type.getElementType().typeCode() == ABIType.TYPE_CODE_BYTE) {
            return type.isString() ? Value.of((String) decoded) : Value.of(Hex.prefixed((byte[]) decoded));
        }
        List<Value> values = new ArrayList<>();
        for (Object element : elements(decoded)) {
            values.add(of(type.getElementType(), element));
        }
        return Value.list(values);
    }

    /** headlong decodes arrays of bool, small ints and longs as primitive arrays, and others as object arrays. */
    private static List<Object> elements(Object array) {
        List<Object> elements = new ArrayList<>();
        switch (array) {
            case boolean[] booleans -> {
                for (boolean b : booleans) {
                    elements.add(b);
                }
            }
            case int[] ints -> {
                for (int i : ints) {
                    elements.add(i);
                }
            }
            case long[] longs -> {
                for (long l : longs) {
                    elements.add(l);
                }
            }
            case Object[] objects -> elements.addAll(List.of(objects));
            default -> throw new IllegalStateException("headlong decoded an array as " + array.getClass());
        }
        return elements;
    }

    private static Value tuple(TupleType<?> type, Tuple decoded) {
        List<Value> values = new ArrayList<>();
        for (int i = 0; i < type.size(); i++) {
            values.add(of(type.get(i), decoded.get(i)));
        }
        return Value.list(values);
    }
}
