package dev.keyhaven.chains.ethereum;

import com.esaulpaugh.headlong.abi.ABIType;
import com.esaulpaugh.headlong.abi.ArrayType;
import com.esaulpaugh.headlong.abi.TupleType;
import java.util.Optional;

/**
 * Checks that calldata lays out its arguments exactly as an ABI encoder does, before headlong decodes it.
 *
 * <p>headlong follows Solidity's lenient decoder: the offset of a dynamic value may point anywhere, even back at
 * data already read. Hostile calldata could then make a thousand offsets point at one array that itself points a
 * thousand times at one string, and decode a few kilobytes into gigabytes. Here every offset must point exactly at
 * the end of the previous value's data, and every length must fit in what remains, so decoding reads each byte
 * once and costs no more than the calldata's own size. Values themselves (padding, bit sizes, booleans) are
 * headlong's to check.
 *
 * <p>Recursion follows the type, whose depth {@link InputTypeRules} bounds; loops are bounded by checked lengths.
 */
final class CanonicalLayout {
    private static final int WORD = 32;
    private static final int SELECTOR_LENGTH = 4;

    private final byte[] data;

    private CanonicalLayout(byte[] data) {
        this.data = data;
    }

    /**
     * Why {@code calldata} (selector included) is not the canonical layout of {@code inputs}, or empty.
     */
    static Optional<String> problem(TupleType<?> inputs, byte[] calldata) {
        try {
            int end = new CanonicalLayout(calldata).tuple(inputs, SELECTOR_LENGTH);
            if (end != calldata.length) {
                return Optional.of((calldata.length - end) + " bytes follow the arguments, from byte offset " + end);
            }
            return Optional.empty();
        } catch (Misplaced e) {
            return Optional.of(e.getMessage());
        }
    }

    /** The end of the encoding of a value of {@code type} that starts at {@code start}. */
    private int value(ABIType<?> type, int start) {
        if (!type.isDynamic()) {
            return span(start, staticSize(type), "the words of a " + type.getCanonicalType());
        }
        if (type.typeCode() == ABIType.TYPE_CODE_TUPLE) {
            return tuple(type.asTupleType(), start);
        }
        ArrayType<?, ?, ?> array = type.asArrayType();
        ABIType<?> element = array.getElementType();
        if (array.getLength() != ArrayType.DYNAMIC_LENGTH) {
            return elements(element, array.getLength(), start);
        }
        int count = word(start, "length");
        if (element.typeCode() == ABIType.TYPE_CODE_BYTE) {
            long padded = ((long) count + WORD - 1) / WORD * WORD;
            return span(start + WORD, padded, "the " + count + " bytes of a " + type.getCanonicalType());
        }
        return elements(element, count, start + WORD);
    }

    private int tuple(TupleType<?> tuple, int base) {
        long head = 0;
        for (ABIType<?> component : tuple) {
            head = saturatedAdd(head, headSize(component));
        }
        int cursor = span(base, head, "the head of a " + tuple.getCanonicalType());
        int at = base;
        for (ABIType<?> component : tuple) {
            if (component.isDynamic()) {
                cursor = tail(component, base, at, cursor);
            }
            at += (int) headSize(component);
        }
        return cursor;
    }

    private int elements(ABIType<?> element, int count, int base) {
        long head = saturatedMultiply(count, headSize(element));
        int headEnd = span(base, head, count + " elements of type " + element.getCanonicalType());
        if (!element.isDynamic()) {
            return headEnd;
        }
        int cursor = headEnd;
        for (int i = 0; i < count; i++) {
            cursor = tail(element, base, base + i * WORD, cursor);
        }
        return cursor;
    }

    /**
     * A dynamic value whose offset, relative to {@code base}, is the word at {@code offsetAt}; it must start at
     * {@code expected}, the end of the data before it.
     */
    private int tail(ABIType<?> type, int base, int offsetAt, int expected) {
        long target = (long) base + word(offsetAt, "offset");
        if (target != expected) {
            throw new Misplaced("the offset at byte " + offsetAt + " points to byte " + target + ", not to byte "
                    + expected + " where an encoder puts the data");
        }
        return value(type, expected);
    }

    /** The end of {@code length} bytes from {@code start}, which must be within the calldata. */
    private int span(int start, long length, String what) {
        if (length > data.length - (long) start) {
            throw new Misplaced(what + " at byte offset " + start + ": " + length + " bytes, but only "
                    + (data.length - start) + " remain");
        }
        return (int) (start + length);
    }

    /** A length or offset: a 32-byte big-endian word whose value must fit in an int. */
    private int word(int at, String what) {
        span(at, WORD, "a " + what);
        for (int i = at; i < at + WORD - Integer.BYTES; i++) {
            if (data[i] != 0) {
                throw new Misplaced("the " + what + " at byte " + at + " is larger than any calldata");
            }
        }
        int value = ((data[at + 28] & 0xff) << 24)
                | ((data[at + 29] & 0xff) << 16)
                | ((data[at + 30] & 0xff) << 8)
                | (data[at + 31] & 0xff);
        if (value < 0) {
            throw new Misplaced("the " + what + " at byte " + at + " is larger than any calldata");
        }
        return value;
    }

    /** The bytes a value takes in its enclosing head: an offset for dynamic types, the value for static ones. */
    private static long headSize(ABIType<?> type) {
        return type.isDynamic() ? WORD : staticSize(type);
    }

    /** The size of a static type's encoding, saturating at {@link Long#MAX_VALUE} (then it never fits). */
    private static long staticSize(ABIType<?> type) {
        return switch (type.typeCode()) {
            case ABIType.TYPE_CODE_TUPLE -> {
                long size = 0;
                for (ABIType<?> component : type.asTupleType()) {
                    size = saturatedAdd(size, staticSize(component));
                }
                yield size;
            }
            case ABIType.TYPE_CODE_ARRAY -> {
                ArrayType<?, ?, ?> array = type.asArrayType();
                // bytes1..bytes32 are arrays of bytes that take one word
                yield array.getElementType().typeCode() == ABIType.TYPE_CODE_BYTE
                        ? WORD
                        : saturatedMultiply(array.getLength(), staticSize(array.getElementType()));
            }
            default -> WORD;
        };
    }

    private static long saturatedAdd(long a, long b) {
        long sum = a + b;
        return sum < 0 ? Long.MAX_VALUE : sum;
    }

    private static long saturatedMultiply(long a, long b) {
        return Math.multiplyHigh(a, b) != 0 || a * b < 0 ? Long.MAX_VALUE : a * b;
    }

    /** Calldata that no encoder lays out this way; carries the reason, not a stack trace (it is expected). */
    private static final class Misplaced extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Misplaced(String message) {
            super(message, null, false, false);
        }
    }
}
