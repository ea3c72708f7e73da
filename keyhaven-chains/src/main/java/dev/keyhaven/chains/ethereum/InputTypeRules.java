package dev.keyhaven.chains.ethereum;

import com.esaulpaugh.headlong.abi.ABIType;
import com.esaulpaugh.headlong.abi.ArrayType;
import com.esaulpaugh.headlong.abi.TupleType;
import java.util.Optional;

/**
 * What Keyhaven refuses in a function's input types, beyond what headlong refuses. Solidity produces none of it:
 * <ul>
 *   <li>an empty tuple or a fixed array of length 0: a value that takes no bytes, so a dynamic array of them would
 *       turn 32 bytes of calldata into millions of values;</li>
 *   <li>nesting deeper than {@link #MAX_DEPTH} arrays and tuples, which would make reading recurse without need.</li>
 * </ul>
 */
final class InputTypeRules {
    static final int MAX_DEPTH = 32;

    private InputTypeRules() {}

    /** Why {@code type} is refused, or empty. */
    static Optional<String> problem(ABIType<?> type) {
        return problem(type, 0);
    }

    private static Optional<String> problem(ABIType<?> type, int depth) {
        if (depth > MAX_DEPTH) {
            return Optional.of("arrays and tuples nest deeper than " + MAX_DEPTH + " levels");
        }
        return switch (type.typeCode()) {
            case ABIType.TYPE_CODE_TUPLE -> {
                TupleType<?> tuple = type.asTupleType();
                if (tuple.isEmpty()) {
                    yield Optional.of("a tuple without components");
                }
                for (ABIType<?> component : tuple) {
                    Optional<String> inner = problem(component, depth + 1);
                    if (inner.isPresent()) {
                        yield inner;
                    }
                }
                yield Optional.empty();
            }
            case ABIType.TYPE_CODE_ARRAY -> {
                ArrayType<?, ?, ?> array = type.asArrayType();
                if (array.getLength() == 0) {
                    yield Optional.of("a fixed-size array of length 0");
                }
                yield problem(array.getElementType(), depth + 1);
            }
            default -> Optional.empty();
        };
    }
}
