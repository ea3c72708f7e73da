package dev.keyhaven.policy;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Coverage-guided fuzzing of the policy language (Jazzer; docs/fuzzing.md): any text either parses or is refused
 * with a {@link PolicyParseException} that points inside it; whatever parses is checked against a vocabulary and
 * evaluated against an environment with unreadable values, neither of which throws; and its canonical form is a fixed
 * point of printing and parsing.
 */
class PolicyExpressionGuidedFuzzTest {
    private static final ValueType TX = ValueType.struct(Map.of(
            "to",
            ValueType.STRING,
            "data",
            ValueType.STRING,
            "value",
            ValueType.INT,
            "chain_id",
            ValueType.INT,
            "function_name",
            ValueType.STRING,
            "contract_call_args",
            ValueType.mapOf(ValueType.ANY)));
    private static final Vocabulary VOCABULARY = Vocabulary.of(Map.of(
            "activity",
                    ValueType.struct(Map.of(
                            "type",
                            ValueType.STRING,
                            "action",
                            ValueType.STRING,
                            "resource",
                            ValueType.STRING,
                            "params",
                            ValueType.mapOf(ValueType.ANY))),
            "approvers",
                    ValueType.listOf(ValueType.struct(
                            Map.of("id", ValueType.STRING, "tags", ValueType.listOf(ValueType.STRING)))),
            "eth", ValueType.struct(Map.of("tx", TX)),
            "wallet", ValueType.struct(Map.of("id", ValueType.STRING, "label", ValueType.STRING)),
            "time", ValueType.struct(Map.of("now", ValueType.TIMESTAMP))));
    private static final Environment ENVIRONMENT = Environment.of(Map.of(
            "activity",
                    Value.struct(Map.of(
                            "type",
                            Value.of("ACTIVITY_TYPE_SIGN_TRANSACTION_V2"),
                            "action",
                            Value.of("SIGN"),
                            "resource",
                            Value.of("PRIVATE_KEY"),
                            "params",
                            Value.struct(Map.of("user_ids", Value.strings(List.of("u1", "u2")))))),
            "approvers",
                    Value.list(
                            Value.struct(Map.of("id", Value.of("u1"), "tags", Value.strings(List.of("ops")))),
                            Value.struct(Map.of("id", Value.of("u2"), "tags", Value.strings(List.of())))),
            "eth",
                    Value.struct(Map.of(
                            "tx",
                            Value.struct(Map.of(
                                    "to",
                                    Value.of("0xabc"),
                                    "data",
                                    Value.of("0xa9059cbb00000000"),
                                    "value",
                                    Value.of(10),
                                    "chain_id",
                                    Value.of(1),
                                    "function_name",
                                    Value.unreadable("no ABI"),
                                    "contract_call_args",
                                    Value.unreadable("no ABI"))))),
            "wallet", Value.struct(Map.of("id", Value.of("w1"), "label", Value.of("treasury"))),
            "time", Value.struct(Map.of("now", Value.of(Instant.parse("2026-03-10T15:00:00Z"))))));

    static Stream<Arguments> seeds() {
        return FuzzSeeds.of("policy-expression");
    }

    @MethodSource("seeds")
    @FuzzTest(maxDuration = "1m")
    @Timeout(10)
    void parsesOrRefusesThenChecksAndEvaluates(byte[] input) {
        String source = new String(input, StandardCharsets.UTF_8);
        PolicyExpression expression;
        try {
            expression = PolicyExpression.parse(source);
        } catch (PolicyParseException refused) {
            assertThat(refused.column()).as(source).isBetween(1, source.length() + 1);
            assertThat(refused.getMessage()).isEqualTo(refused.problem() + " at column " + refused.column());
            return;
        }
        for (Vocabulary.Problem problem : VOCABULARY.check(expression)) {
            assertThat(problem.column()).as(problem.message()).isBetween(1, source.length());
        }
        EvaluationResult result = expression.evaluate(ENVIRONMENT);
        if (result instanceof EvaluationError error) {
            assertThat(error.column()).as(error.message()).isBetween(1, source.length());
        }
        assertThat(result).isNotNull();
        printsToAFixedPoint(expression);
    }

    /** The canonical text of a parsed expression parses and prints back to itself (when it fits the limits). */
    private static void printsToAFixedPoint(PolicyExpression expression) {
        String canonical = Printer.print(expression.root());
        PolicyExpression reparsed;
        try {
            reparsed = PolicyExpression.parse(canonical);
        } catch (PolicyParseException overLimit) {
            // Printing adds parentheses and spaces: a source at a limit may print past it, and only that way.
            assertThat(overLimit.problem()).as(canonical).containsAnyOf("characters", "nests deeper");
            return;
        }
        assertThat(Printer.print(reparsed.root())).isEqualTo(canonical);
    }
}
