package dev.keyhaven.policy;

import dev.keyhaven.policy.time.CronSpan;
import java.util.List;

/**
 * The syntax tree of a parsed expression. Every node carries the 1-based column of the token that names it (the
 * operator, the field, the function), which evaluation errors report.
 */
sealed interface Node {

    int column();

    /** {@code true}, {@code 42}, {@code 'abc'}, a list of literals, or a {@code Timestamp('…')} that parsed. */
    record Literal(Value value, int column) implements Node {}

    /** {@code [a, b, …]} with an element that is not a literal. */
    record ListLiteral(List<Node> elements, int column) implements Node {}

    /** A top-level name the {@link Environment} supplies, e.g. {@code activity}. */
    record Keyword(String name, int column) implements Node {}

    /** The variable of an enclosing predicate; {@code slot} is its nesting depth (0 = outermost predicate). */
    record Variable(String name, int slot, int column) implements Node {}

    /** {@code receiver.name}; on a list, {@code .count} without parentheses is {@code count()}. */
    record Field(Node receiver, String name, int column) implements Node {}

    /** {@code receiver[index]}: a list element, a character of a string, or a struct field by name. */
    record Index(Node receiver, Node index, int column) implements Node {}

    /** {@code receiver[start..end]}, end-exclusive, on lists and strings. */
    record Slice(Node receiver, Node start, Node end, int column) implements Node {}

    /** {@code !operand}. */
    record Not(Node operand, int column) implements Node {}

    /** {@code a && b && …} or {@code a || b || …}: every operand is evaluated, see {@link Evaluator}. */
    record Logical(LogicalOperator operator, List<Node> operands, int column) implements Node {}

    /** {@code left op right} for {@code == != < > <= >= in}. */
    record Comparison(ComparisonOperator operator, Node left, Node right, int column) implements Node {}

    /** {@code receiver.all(v, p)}, {@code .any(v, p)} or {@code .filter(v, p)}; {@code v} is bound at {@code slot}. */
    record Predicate(PredicateFunction function, Node receiver, String variable, int slot, Node body, int column)
            implements Node {}

    /** {@code receiver.contains(element)}. */
    record Contains(Node receiver, Node element, int column) implements Node {}

    /** {@code receiver.count()}. */
    record Count(Node receiver, int column) implements Node {}

    /** {@code CronSpan('…', '…', '…')} whose arguments parsed: whether {@code time.now} is in the span. */
    record InCronSpan(CronSpan span, int column) implements Node {}

    /**
     * A {@code Timestamp(…)} or {@code CronSpan(…)} whose arguments do not parse. Turnkey reports a bad argument when
     * the policy is evaluated, so the problem is kept here and evaluates to an {@code INVALID_ARGUMENT} error.
     */
    record InvalidTimeCall(String call, String problem, int column) implements Node {}

    enum LogicalOperator {
        AND("&&"),
        OR("||");

        final String symbol;

        LogicalOperator(String symbol) {
            this.symbol = symbol;
        }
    }

    enum ComparisonOperator {
        EQ("=="),
        NE("!="),
        LT("<"),
        GT(">"),
        LE("<="),
        GE(">="),
        IN("in");

        final String symbol;

        ComparisonOperator(String symbol) {
            this.symbol = symbol;
        }
    }

    enum PredicateFunction {
        ALL("all"),
        ANY("any"),
        FILTER("filter");

        final String methodName;

        PredicateFunction(String methodName) {
            this.methodName = methodName;
        }
    }
}
