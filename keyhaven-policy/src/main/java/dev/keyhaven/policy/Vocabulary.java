package dev.keyhaven.policy;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The keywords a server binds and the shape of each ({@link ValueType}), and the check of an expression against them.
 * The language itself accepts any identifier as a keyword and any name as a field, and reading one the environment
 * lacks is an evaluation error; Turnkey takes such a policy as not applying. So a misspelt field in a DENY policy would
 * silently deny nothing. {@link #check} finds, before the policy is stored, every name that no activity can bind, every
 * access that cannot work on the declared shape (a field of a string, {@code all} over a number), and every comparison
 * whose sides can never have the same type.
 *
 * <pre>
 * Vocabulary vocabulary = Vocabulary.of(Map.of("activity", ValueType.struct(Map.of("type", ValueType.STRING))));
 * vocabulary.check(PolicyExpression.parse("activity.typ == 'x'"))
 *     // [Problem["'activity' has no field 'typ'", 10]]
 * </pre>
 */
public final class Vocabulary {
    private final Map<String, ValueType> keywords;

    private Vocabulary(Map<String, ValueType> keywords) {
        this.keywords = Map.copyOf(keywords);
    }

    public static Vocabulary of(Map<String, ? extends ValueType> keywords) {
        return new Vocabulary(Map.copyOf(keywords));
    }

    /** The declared shape of {@code keyword}, if it is one. */
    public Optional<ValueType> keyword(String keyword) {
        return Optional.ofNullable(keywords.get(keyword));
    }

    /** One thing the expression names or does that no activity can satisfy, at its 1-based column. */
    public record Problem(String message, int column) {
        public Problem {
            Objects.requireNonNull(message, "message");
        }

        @Override
        public String toString() {
            return message + " at column " + column;
        }
    }

    /** Every problem of {@code expression} against this vocabulary, left to right; empty when it may be stored. */
    public List<Problem> check(PolicyExpression expression) {
        Checker checker = new Checker();
        checker.requireBool(checker.type(expression.root()), expression.root());
        return List.copyOf(checker.problems);
    }

    /** Infers each node's declared type, recording what cannot work; after a problem, the part's type is ANY. */
    private final class Checker {
        private final List<Problem> problems = new ArrayList<>();
        private final List<ValueType> variables = new ArrayList<>();

        ValueType type(Node node) {
            return switch (node) {
                case Node.Literal(Value value, int _) -> literal(value);
                case Node.ListLiteral(List<Node> elements, int _) -> {
                    elements.forEach(this::type);
                    yield ValueType.listOf(ValueType.ANY);
                }
                case Node.Keyword(String name, int column) -> {
                    ValueType type = keywords.get(name);
                    yield type != null ? type : problem("unknown keyword '" + name + "'", column);
                }
                case Node.Variable(String _, int slot, int _) -> variables.get(slot);
                case Node.Field(Node receiver, String name, int column) ->
                    field(receiver, type(receiver), name, column);
                case Node.Index(Node receiver, Node index, int column) -> index(receiver, index, column);
                case Node.Slice(Node receiver, Node start, Node end, int column) -> {
                    ValueType type = type(receiver);
                    requireInt(type(start), start);
                    requireInt(type(end), end);
                    yield switch (type) {
                        case ValueType.ListOf _, ValueType.Any _ -> type;
                        case ValueType.Scalar s when s.equals(ValueType.STRING) -> type;
                        default ->
                            problem("cannot slice '" + Printer.describe(receiver) + "', " + article(type), column);
                    };
                }
                case Node.Not(Node operand, int _) -> {
                    requireBool(type(operand), operand);
                    yield ValueType.BOOL;
                }
                case Node.Logical(var _, List<Node> operands, int _) -> {
                    operands.forEach(operand -> requireBool(type(operand), operand));
                    yield ValueType.BOOL;
                }
                case Node.Comparison(Node.ComparisonOperator operator, Node left, Node right, int column) -> {
                    comparison(operator, type(left), type(right), column);
                    yield ValueType.BOOL;
                }
                case Node.Predicate predicate -> predicate(predicate);
                case Node.Contains(Node receiver, Node element, int column) -> {
                    ValueType list = requireList(type(receiver), receiver, "contains", column);
                    sameScalar(
                            type(element),
                            list instanceof ValueType.ListOf(ValueType e) ? e : ValueType.ANY,
                            "==",
                            column);
                    yield ValueType.BOOL;
                }
                case Node.Count(Node receiver, int column) -> {
                    requireList(type(receiver), receiver, "count", column);
                    yield ValueType.INT;
                }
                case Node.InCronSpan(var _, int column) -> {
                    if (!keywords.containsKey("time")) {
                        problem("CronSpan reads 'time.now', and there is no keyword 'time'", column);
                    }
                    yield ValueType.BOOL;
                }
                case Node.InvalidTimeCall(String call, String problem, int column) -> {
                    problem("invalid " + call + ": " + problem, column);
                    yield ValueType.ANY;
                }
            };
        }

        private ValueType field(Node receiver, ValueType type, String name, int column) {
            return switch (type) {
                case ValueType.StructOf(Map<String, ValueType> fields) -> {
                    ValueType field = fields.get(name);
                    yield field != null
                            ? field
                            : problem("'" + Printer.describe(receiver) + "' has no field '" + name + "'", column);
                }
                case ValueType.ListOf _ when name.equals("count") -> ValueType.INT;
                case ValueType.MapOf(ValueType values) -> values;
                case ValueType.Any _ -> ValueType.ANY;
                default ->
                    problem(
                            "cannot read field '" + name + "' of '" + Printer.describe(receiver) + "', "
                                    + article(type),
                            column);
            };
        }

        private ValueType index(Node receiver, Node index, int column) {
            ValueType type = type(receiver);
            ValueType key = type(index);
            return switch (type) {
                case ValueType.ListOf(ValueType element) -> {
                    requireInt(key, index);
                    yield element;
                }
                case ValueType.StructOf _
                when index instanceof Node.Literal(StringValue(String name), int _) ->
                    field(receiver, type, name, column);
                case ValueType.StructOf _, ValueType.MapOf _ -> {
                    if (key instanceof ValueType.Scalar && !key.equals(ValueType.STRING)) {
                        problem("a struct is indexed by a string, not " + article(key), index.column());
                    }
                    yield type instanceof ValueType.MapOf(ValueType values) ? values : ValueType.ANY;
                }
                case ValueType.Scalar s
                when s.equals(ValueType.STRING) -> {
                    requireInt(key, index);
                    yield ValueType.STRING;
                }
                case ValueType.Any _ -> ValueType.ANY;
                default -> problem("cannot index '" + Printer.describe(receiver) + "', " + article(type), column);
            };
        }

        private ValueType predicate(Node.Predicate predicate) {
            String function = predicate.function().methodName;
            ValueType list =
                    requireList(type(predicate.receiver()), predicate.receiver(), function, predicate.column());
            ValueType element = list instanceof ValueType.ListOf(ValueType e) ? e : ValueType.ANY;
            variables.add(element);
            requireBool(type(predicate.body()), predicate.body());
            variables.removeLast();
            return predicate.function() == Node.PredicateFunction.FILTER ? ValueType.listOf(element) : ValueType.BOOL;
        }

        private void comparison(Node.ComparisonOperator operator, ValueType left, ValueType right, int column) {
            switch (operator) {
                case EQ, NE -> sameScalar(left, right, operator.symbol, column);
                case IN -> {
                    if (right instanceof ValueType.ListOf(ValueType element)) {
                        sameScalar(left, element, operator.symbol, column);
                    } else if (!(right instanceof ValueType.Any)) {
                        problem("'in' needs a list on its right, not " + article(right), column);
                    }
                }
                case LT, GT, LE, GE -> {
                    for (ValueType side : List.of(left, right)) {
                        if (!(side instanceof ValueType.Any)
                                && !side.equals(ValueType.INT)
                                && !side.equals(ValueType.TIMESTAMP)) {
                            problem(
                                    "'" + operator.symbol + "' orders ints and timestamps, not " + article(side),
                                    column);
                            return;
                        }
                    }
                    sameScalar(left, right, operator.symbol, column);
                }
            }
        }

        /** Two scalars of different types never compare: at evaluation that is always a TYPE_MISMATCH. */
        private void sameScalar(ValueType left, ValueType right, String operator, int column) {
            if (left instanceof ValueType.Scalar && right instanceof ValueType.Scalar && !left.equals(right)) {
                problem("cannot compare " + left.name() + " " + operator + " " + right.name(), column);
            }
        }

        private ValueType requireList(ValueType type, Node node, String function, int column) {
            if (type instanceof ValueType.ListOf || type instanceof ValueType.Any) {
                return type;
            }
            return problem(
                    "'" + function + "' needs a list, and '" + Printer.describe(node) + "' is " + article(type),
                    column);
        }

        private void requireBool(ValueType type, Node node) {
            if (!(type instanceof ValueType.Any) && !type.equals(ValueType.BOOL)) {
                problem("'" + Printer.describe(node) + "' is " + article(type) + ", not a bool", node.column());
            }
        }

        private void requireInt(ValueType type, Node node) {
            if (!(type instanceof ValueType.Any) && !type.equals(ValueType.INT)) {
                problem(
                        "an index must be an int, and '" + Printer.describe(node) + "' is " + article(type),
                        node.column());
            }
        }

        private ValueType problem(String message, int column) {
            problems.add(new Problem(message, column));
            return ValueType.ANY;
        }
    }

    private static ValueType literal(Value value) {
        return switch (value) {
            case BoolValue _ -> ValueType.BOOL;
            case IntValue _ -> ValueType.INT;
            case StringValue _ -> ValueType.STRING;
            case TimestampValue _ -> ValueType.TIMESTAMP;
            case ListValue _ -> ValueType.listOf(ValueType.ANY);
            case StructValue _, UnreadableValue _ -> ValueType.ANY;
        };
    }

    private static String article(ValueType type) {
        String name = type.name();
        return (name.startsWith("i") || name.startsWith("a") ? "an " : "a ") + name;
    }
}
