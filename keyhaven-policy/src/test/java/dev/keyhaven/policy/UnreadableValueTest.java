package dev.keyhaven.policy;

import static dev.keyhaven.policy.EvaluationError.Kind.MISSING_FIELD;
import static dev.keyhaven.policy.EvaluationError.Kind.TYPE_MISMATCH;
import static dev.keyhaven.policy.EvaluationError.Kind.UNREADABLE;
import static dev.keyhaven.policy.Evaluations.assertError;
import static dev.keyhaven.policy.Evaluations.assertFails;
import static dev.keyhaven.policy.Evaluations.assertHolds;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A value that exists but cannot be read is unknown: whatever depends on it is an UNREADABLE error, and whatever does
 * not (one false operand of {@code &&}, one true operand of {@code ||}, one element deciding {@code any}/{@code all}/
 * {@code in}) is decided without it.
 */
class UnreadableValueTest {
    private static final String WHY = "no smart contract interface for 0xabc";
    private static final Environment ENV = Environment.of(Map.of(
            "tx",
                    Value.struct(Map.of(
                            "to", Value.of("0xabc"),
                            "function_name", Value.unreadable(WHY),
                            "contract_call_args", Value.unreadable(WHY))),
            "calls", Value.list(Value.of(1), Value.unreadable(WHY), Value.of(3)),
            "n", Value.of(7)));

    @Test
    void readingItInAnyWayIsAnUnreadableErrorThatSaysWhy() {
        EvaluationError error = assertError("tx.function_name == 'approve'", ENV, UNREADABLE);
        assertThat(error.message()).isEqualTo("cannot read 'tx.function_name': " + WHY);
        assertError("tx.contract_call_args['wad'] > 5", ENV, UNREADABLE);
        assertError("tx.contract_call_args.wad > 5", ENV, UNREADABLE);
        assertError("tx.function_name[0..2] == 'ap'", ENV, UNREADABLE);
        assertError("tx.contract_call_args.count() == 2", ENV, UNREADABLE);
        assertError("tx.contract_call_args.all(a, a == 1)", ENV, UNREADABLE);
        assertError("!tx.function_name", ENV, UNREADABLE);
        assertError("tx.function_name", ENV, UNREADABLE);
        assertError("'approve' in [tx.function_name]", ENV, UNREADABLE);
        assertError("[1, 2][tx.function_name] == 1", ENV, UNREADABLE);
    }

    @Test
    void andIsFalseWhenAnotherOperandIsFalse() {
        assertFails("tx.to == '0xdef' && tx.function_name == 'approve'", ENV);
        assertFails("tx.function_name == 'approve' && tx.to == '0xdef'", ENV);
        assertError("tx.to == '0xabc' && tx.function_name == 'approve'", ENV, UNREADABLE);
    }

    @Test
    void orIsTrueWhenAnotherOperandIsTrue() {
        assertHolds("tx.function_name == 'approve' || tx.to == '0xabc'", ENV);
        assertError("tx.function_name == 'approve' || tx.to == '0xdef'", ENV, UNREADABLE);
    }

    @Test
    void anyOtherErrorStillWinsOverAnUnknownOperand() {
        // No short-circuit for real errors: Turnkey's outcome is an error whatever the other operands say.
        assertError("tx.function_name == 'approve' && wallet.id == 'w'", ENV, MISSING_FIELD);
        assertError("tx.to == '0xdef' && wallet.id == 'w'", ENV, MISSING_FIELD);
        assertError("tx.function_name == 'approve' || n == 'seven'", ENV, TYPE_MISMATCH);
    }

    @Test
    void predicatesAndMembershipDecideWithoutTheUnknownElementWhenOthersDecide() {
        assertHolds("calls.any(c, c == 3)", ENV);
        assertError("calls.any(c, c == 2)", ENV, UNREADABLE);
        assertFails("calls.all(c, c < 3)", ENV);
        assertError("calls.all(c, c < 4)", ENV, UNREADABLE);
        assertHolds("3 in calls", ENV);
        assertError("2 in calls", ENV, UNREADABLE);
        assertHolds("calls.contains(1)", ENV);
        assertError("calls.filter(c, c > 1).count() == 1", ENV, UNREADABLE);
        // Counting does not read the elements.
        assertHolds("calls.count() == 3", ENV);
    }

    @Test
    void structuralEqualityIsFalseWhereAKnownPartDiffers() {
        assertFails("calls == [2, 2, 3]", ENV);
        assertFails("calls == [1, 2]", ENV);
        assertError("calls == [1, 2, 3]", ENV, UNREADABLE);
    }

    @Test
    void printsAsUnreadableWithItsReason() {
        assertThat(Printer.value(Value.unreadable("x"))).isEqualTo("<unreadable: x>");
        assertThat(Value.list(List.of(Value.unreadable(WHY))).elements()).hasSize(1);
    }
}
