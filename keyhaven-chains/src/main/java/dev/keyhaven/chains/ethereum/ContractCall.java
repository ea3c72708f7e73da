package dev.keyhaven.chains.ethereum;

import dev.keyhaven.policy.Value;
import java.util.Map;
import java.util.Objects;

/** What Keyhaven reads of a contract call's calldata with the contract's ABI: the call, or why it cannot. */
public sealed interface ContractCall {

    /**
     * A call that decodes exactly as one of the ABI's functions.
     *
     * @param functionName the ABI function's {@code name}
     * @param selector     {@code 0x} and the 4-byte selector in lowercase hex
     * @param arguments    the arguments keyed by input name (by position, {@code "0"}, {@code "1"}…, when unnamed)
     */
    record Decoded(String functionName, String selector, Map<String, Value> arguments) implements ContractCall {
        public Decoded {
            Objects.requireNonNull(functionName, "functionName");
            Objects.requireNonNull(selector, "selector");
            arguments = Map.copyOf(arguments);
        }
    }

    /** A call that exists but that the ABI does not read: an unknown selector, or calldata that does not decode. */
    record Unreadable(String reason) implements ContractCall {
        public Unreadable {
            Objects.requireNonNull(reason, "reason");
        }
    }
}
