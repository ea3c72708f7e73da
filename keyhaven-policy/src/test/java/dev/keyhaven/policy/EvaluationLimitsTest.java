package dev.keyhaven.policy;

import static dev.keyhaven.policy.EvaluationError.Kind.LIMIT_EXCEEDED;
import static dev.keyhaven.policy.Evaluations.assertError;
import static dev.keyhaven.policy.Evaluations.assertHolds;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.IntFunction;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class EvaluationLimitsTest {
    private static final Environment HUNDRED = Environment.of(Map.of(
            "l", Value.list(IntStream.range(0, 100).mapToObj(Value::of).toList()),
            "data", Value.of("0x" + "ab".repeat(500_000)),
            "many", Value.list(Collections.nCopies(10_000, Value.of("x")))));

    @Test
    void nestedPredicatesThatMultiplyPastTheBudgetAreStopped() {
        // 100^3 = a million body evaluations.
        assertError("l.any(a, l.any(b, l.any(c, a == c)))", HUNDRED, LIMIT_EXCEEDED, "evaluation exceeded 50000 steps");
        assertError("l.all(a, l.all(b, l.all(c, l.all(d, true))))", HUNDRED, LIMIT_EXCEEDED);
        assertError("l.filter(a, l.filter(b, l.any(c, true)).count() > 0).count() > 0", HUNDRED, LIMIT_EXCEEDED);
    }

    @Test
    void aSourceCannotHideExplosiveWorkBehindAnEarlyResult() {
        assertError("false && l.all(a, l.all(b, l.all(c, true)))", HUNDRED, LIMIT_EXCEEDED);
    }

    @Test
    void workProportionalToLargeValuesIsCharged() {
        // One megabyte compared with itself 100 times: only 8 node visits per element, but 16k steps per compare.
        assertError("l.all(x, data == data)", HUNDRED, LIMIT_EXCEEDED);
        assertError("l.all(x, data[0..1000000] != '')", HUNDRED, LIMIT_EXCEEDED);
        // 10,000 elements scanned by 'in' 10 times.
        assertError("[1, 2, 3, 4, 5, 6, 7, 8, 9, 10].all(i, 'y' in many)", HUNDRED, LIMIT_EXCEEDED);
    }

    @Test
    void realisticWorkStaysFarBelowTheBudget() {
        assertHolds("l.all(a, l.any(b, a == b))", HUNDRED); // 100 × 100 comparisons
        assertHolds("data[0..10] == '0xabababab' && 'x' in many && many.count() == 10000", HUNDRED);
        assertHolds("data == data", HUNDRED);
    }

    @Test
    void eachEvaluationHasItsOwnBudget() {
        PolicyExpression expression = PolicyExpression.parse("l.all(a, l.any(b, a == b))");
        for (int i = 0; i < 20; i++) {
            assertThat(expression.evaluate(HUNDRED)).isEqualTo(EvaluationResult.Decided.TRUE);
        }
    }

    /**
     * At the deepest nesting the parser and the evaluator need a few hundred frames: a quarter of the JVM's default
     * 1 MB thread stack is enough, even for interpreted code, whose frames are the largest.
     */
    @Test
    void theDeepestAcceptedExpressionsParseAndEvaluateOnASmallStack() throws InterruptedException {
        Environment one = Environment.of(Map.of(
                "one",
                Value.list(Value.of(1)),
                "s",
                Value.struct(Map.of("s", Value.struct(Map.of("s", Value.of(true)))))));
        List<String> deepest = List.of(
                deepestAccepted(depth -> "!(", depth -> ")", "true"),
                deepestAccepted(depth -> "one.any(v" + depth + ", ", depth -> ")", "true"),
                deepestAccepted(depth -> "[", depth -> "][0]", "true"),
                deepestAccepted(depth -> "(s.s.s == ", depth -> ")", "true"));
        List<EvaluationResult> results = new CopyOnWriteArrayList<>();
        Thread thread = new Thread(
                null,
                () -> deepest.forEach(
                        source -> results.add(PolicyExpression.parse(source).evaluate(one))),
                "small-stack",
                256 * 1024);
        thread.start();
        thread.join();
        assertThat(results)
                .hasSize(deepest.size())
                .allSatisfy(result ->
                        assertThat(result).isInstanceOfAny(EvaluationResult.Decided.class, EvaluationError.class));
    }

    /** The source nested as deep as the parser accepts: one more level is rejected. */
    private static String deepestAccepted(IntFunction<String> open, IntFunction<String> close, String core) {
        String deepest = null;
        for (int depth = 1; ; depth++) {
            StringBuilder source = new StringBuilder();
            for (int i = 0; i < depth; i++) {
                source.append(open.apply(i));
            }
            source.append(core);
            for (int i = depth - 1; i >= 0; i--) {
                source.append(close.apply(i));
            }
            try {
                PolicyExpression.parse(source.toString());
                deepest = source.toString();
            } catch (PolicyParseException e) {
                assertThat(e.problem()).isEqualTo("expression nests deeper than 64 levels");
                assertThat(deepest).isNotNull();
                return deepest;
            }
        }
    }

    @Test
    void theLargestParsableExpressionEvaluatesWithinTheBudgetOrStops() {
        // ~4 kB of the heaviest per-character construct still ends, with a result.
        String body = String.join(" && ", Collections.nCopies(60, "l.all(a, l.any(b, a == b))"));
        assertThat(body.length()).isLessThanOrEqualTo(Limits.MAX_SOURCE_LENGTH);
        assertError(body, HUNDRED, LIMIT_EXCEEDED);
        assertThat(PolicyExpression.parse(body).referencedKeywords()).containsExactly("l");
    }
}
