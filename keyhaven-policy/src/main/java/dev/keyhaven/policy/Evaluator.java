package dev.keyhaven.policy;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;

/**
 * Evaluates one tree against one environment; a new evaluator per evaluation holds its budget and predicate
 * variables, so the shared tree stays immutable.
 *
 * <p>There is no short-circuit: {@code &&}, {@code ||}, {@code all}, {@code any}, {@code in} and {@code contains}
 * evaluate every operand or element even when the result is already known. Turnkey's outcome for a policy with an
 * erroring clause is an error even when the other side would decide (e.g. {@code wallet.id} when a private key signs);
 * stopping early would turn that error into a decision depending on operand order. The one exception is an
 * {@link UnreadableValue}: it is unknown, not an error of the expression, so these operators decide without it where
 * the other operands already decide ({@link Conjunction}, {@link Disjunction}).
 */
final class Evaluator {
    private final Environment environment;
    private final Value[] variables;
    private final Budget budget = new Budget();
    private final Comparisons comparisons = new Comparisons(budget);
    private final Access access = new Access(budget);

    private Evaluator(Environment environment, int variableSlots) {
        this.environment = environment;
        this.variables = new Value[variableSlots];
    }

    static EvaluationResult evaluate(Node root, int variableSlots, Environment environment) {
        try {
            Value value = new Evaluator(environment, variableSlots).evaluate(root);
            if (value instanceof BoolValue(boolean result)) {
                return EvaluationResult.Decided.of(result);
            }
            if (value instanceof UnreadableValue unreadable) {
                return EvaluationFailure.unreadable("the expression's value", unreadable, root.column())
                        .error();
            }
            return new EvaluationError(
                    EvaluationError.Kind.NOT_BOOLEAN,
                    "the expression evaluates to " + Printer.typeOf(value) + ", not a bool",
                    root.column());
        } catch (EvaluationFailure failure) {
            return failure.error();
        }
    }

    private Value evaluate(Node node) {
        budget.charge(1, node.column());
        return switch (node) {
            case Node.Literal(Value value, int _) -> value;
            case Node.ListLiteral(List<Node> elements, int _) -> {
                List<Value> values = new ArrayList<>(elements.size());
                for (Node element : elements) {
                    values.add(evaluate(element));
                }
                yield Value.list(values);
            }
            case Node.Keyword(String name, int column) ->
                environment
                        .lookup(name)
                        .orElseThrow(() -> new EvaluationFailure(
                                EvaluationError.Kind.MISSING_FIELD, "missing keyword '" + name + "'", column));
            case Node.Variable(String _, int slot, int _) -> variables[slot];
            case Node.Field(Node receiver, String name, int column) ->
                access.field(evaluate(receiver), receiver, name, column);
            case Node.Index(Node receiver, Node index, int column) ->
                access.index(evaluate(receiver), receiver, evaluate(index), column);
            case Node.Slice(Node receiver, Node start, Node end, int column) ->
                access.slice(evaluate(receiver), receiver, evaluate(start), evaluate(end), column);
            case Node.Not(Node operand, int column) -> Value.of(!bool(evaluate(operand), "'!'", column));
            case Node.Logical(Node.LogicalOperator operator, List<Node> operands, int column) ->
                Value.of(logical(operator, operands, column));
            case Node.Comparison(Node.ComparisonOperator operator, Node left, Node right, int column) -> {
                Value leftValue = evaluate(left);
                Value rightValue = evaluate(right);
                readable(leftValue, left, column);
                readable(rightValue, right, column);
                yield Value.of(comparisons.compare(operator, leftValue, rightValue, column));
            }
            case Node.Predicate predicate -> predicate(predicate);
            case Node.Contains(Node receiver, Node element, int column) ->
                Value.of(comparisons.contains(
                        evaluate(receiver), evaluate(element), "'contains' needs a list, not ", column));
            case Node.Count(Node receiver, int column) ->
                Value.of(list(evaluate(receiver), "count", column).size());
            case Node.InCronSpan(var span, int column) -> Value.of(span.contains(now(column)));
            case Node.InvalidTimeCall(String call, String problem, int column) ->
                throw new EvaluationFailure(
                        EvaluationError.Kind.INVALID_ARGUMENT, "invalid " + call + ": " + problem, column);
        };
    }

    private boolean logical(Node.LogicalOperator operator, List<Node> operands, int column) {
        String name = "'" + operator.symbol + "'";
        if (operator == Node.LogicalOperator.AND) {
            Conjunction all = new Conjunction();
            operands.forEach(operand -> all.add(() -> bool(evaluate(operand), name, column)));
            return all.result();
        }
        Disjunction any = new Disjunction();
        operands.forEach(operand -> any.add(() -> bool(evaluate(operand), name, column)));
        return any.result();
    }

    /** {@code all}, {@code any} and {@code filter}: the body is evaluated once per element, with the variable bound. */
    private Value predicate(Node.Predicate predicate) {
        String name = predicate.function().methodName;
        List<Value> elements = list(evaluate(predicate.receiver()), name, predicate.column());
        Conjunction all = new Conjunction();
        Disjunction any = new Disjunction();
        List<Value> kept = predicate.function() == Node.PredicateFunction.FILTER ? new ArrayList<>() : List.of();
        for (Value element : elements) {
            BooleanSupplier holds = () -> {
                variables[predicate.slot()] = element;
                return holdsFor(predicate, name);
            };
            switch (predicate.function()) {
                case ALL -> all.add(holds);
                case ANY -> any.add(holds);
                // A filter keeps what holds; an element that cannot be decided makes the list itself unknown.
                case FILTER ->
                    all.add(() -> {
                        if (holds.getAsBoolean()) {
                            kept.add(element);
                        }
                        return true;
                    });
            }
        }
        return switch (predicate.function()) {
            case ALL -> Value.of(all.result());
            case ANY -> Value.of(any.result());
            case FILTER -> {
                all.result();
                yield Value.list(kept);
            }
        };
    }

    private boolean holdsFor(Node.Predicate predicate, String name) {
        Value result = evaluate(predicate.body());
        if (result instanceof UnreadableValue unreadable) {
            throw EvaluationFailure.unreadable(
                    "the predicate of '" + name + "'",
                    unreadable,
                    predicate.body().column());
        }
        if (!(result instanceof BoolValue(boolean holds))) {
            throw new EvaluationFailure(
                    EvaluationError.Kind.TYPE_MISMATCH,
                    "the predicate of '" + name + "' evaluates to " + Printer.typeOf(result) + ", not a bool",
                    predicate.body().column());
        }
        return holds;
    }

    /** {@code time.now}, which {@code CronSpan} reads implicitly. */
    private Instant now(int column) {
        Node timeNow = new Node.Field(new Node.Keyword("time", column), "now", column);
        if (evaluate(timeNow) instanceof TimestampValue(Instant now)) {
            return now;
        }
        throw new EvaluationFailure(EvaluationError.Kind.TYPE_MISMATCH, "'time.now' is not a timestamp", column);
    }

    /** An operand that cannot be read is named in the error, so operators see which field it was. */
    private static void readable(Value value, Node node, int column) {
        if (value instanceof UnreadableValue unreadable) {
            throw EvaluationFailure.unreadable("'" + Printer.describe(node) + "'", unreadable, column);
        }
    }

    private static boolean bool(Value value, String operator, int column) {
        if (value instanceof BoolValue(boolean b)) {
            return b;
        }
        if (value instanceof UnreadableValue unreadable) {
            throw EvaluationFailure.unreadable("an operand of " + operator, unreadable, column);
        }
        throw new EvaluationFailure(
                EvaluationError.Kind.TYPE_MISMATCH,
                operator + " needs bool operands, not " + Printer.typeOf(value),
                column);
    }

    private static List<Value> list(Value value, String function, int column) {
        if (value instanceof ListValue(List<Value> elements)) {
            return elements;
        }
        if (value instanceof UnreadableValue unreadable) {
            throw EvaluationFailure.unreadable("the receiver of '" + function + "'", unreadable, column);
        }
        throw new EvaluationFailure(
                EvaluationError.Kind.TYPE_MISMATCH,
                "'" + function + "' needs a list, not " + Printer.typeOf(value),
                column);
    }
}
