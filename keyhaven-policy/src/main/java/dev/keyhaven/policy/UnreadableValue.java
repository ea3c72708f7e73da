package dev.keyhaven.policy;

import java.util.Objects;

/**
 * A value that exists but that the server cannot read: the arguments of a contract call whose ABI was never
 * uploaded, the fields of a Tron contract type it does not decode, the fee of a PSBT without its inputs' amounts.
 * It is not absent (a missing field means "this activity has no such thing"); it is unknown. Reading it in any way
 * is an {@link EvaluationError.Kind#UNREADABLE} error, except where the answer does not depend on it: {@code &&} with
 * an operand that is false is false, {@code ||} with one that is true is true, and likewise {@code all} and
 * {@code any} (Kleene's three-valued logic). So a DENY policy about what cannot be read fails closed, while one whose
 * other operand already rules it out does not apply.
 *
 * @param reason why the value cannot be read, e.g. {@code no smart contract interface for 0x…}
 */
public record UnreadableValue(String reason) implements Value {
    public UnreadableValue {
        Objects.requireNonNull(reason, "reason");
    }

    @Override
    public String typeName() {
        return "unreadable value";
    }
}
