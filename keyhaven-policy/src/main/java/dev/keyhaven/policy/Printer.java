package dev.keyhaven.policy;

import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Writes a syntax tree back as source, in one canonical spelling: what {@link PolicyExpression#toString} shows and how
 * evaluation errors name the part of an expression they are about. Parsing the output gives the same tree.
 */
final class Printer {
    private static final int MAX_DESCRIPTION_LENGTH = 60;

    private Printer() {}

    static String print(Node node) {
        return switch (node) {
            case Node.Literal(Value value, int _) -> value(value);
            case Node.ListLiteral(List<Node> elements, int _) ->
                elements.stream().map(Printer::print).collect(Collectors.joining(", ", "[", "]"));
            case Node.Keyword(String name, int _) -> name;
            case Node.Variable(String name, int _, int _) -> name;
            case Node.Field(Node receiver, String name, int _) -> receiver(receiver) + "." + name;
            case Node.Index(Node receiver, Node index, int _) -> receiver(receiver) + "[" + print(index) + "]";
            case Node.Slice(Node receiver, Node start, Node end, int _) ->
                receiver(receiver) + "[" + print(start) + ".." + print(end) + "]";
            case Node.Not(Node operand, int _) -> "!" + operand(operand);
            case Node.Logical(Node.LogicalOperator operator, List<Node> operands, int _) ->
                operands.stream().map(Printer::operand).collect(Collectors.joining(" " + operator.symbol + " "));
            case Node.Comparison(Node.ComparisonOperator operator, Node left, Node right, int _) ->
                operand(left) + " " + operator.symbol + " " + operand(right);
            case Node.Predicate(var function, Node receiver, String variable, int _, Node body, int _) ->
                receiver(receiver) + "." + function.methodName + "(" + variable + ", " + print(body) + ")";
            case Node.Contains(Node receiver, Node element, int _) ->
                receiver(receiver) + ".contains(" + print(element) + ")";
            case Node.Count(Node receiver, int _) -> receiver(receiver) + ".count()";
            case Node.InCronSpan(var span, int _) ->
                "CronSpan(" + string(span.cron()) + ", " + string(span.duration()) + ", " + string(span.zone()) + ")";
            case Node.InvalidTimeCall(String call, String _, int _) -> call;
        };
    }

    /** The printed node, shortened for an error message. */
    static String describe(Node node) {
        String text = print(node);
        return text.length() <= MAX_DESCRIPTION_LENGTH ? text : text.substring(0, MAX_DESCRIPTION_LENGTH - 1) + "…";
    }

    static String value(Value value) {
        return switch (value) {
            case BoolValue(boolean b) -> Boolean.toString(b);
            case IntValue(var i) -> i.toString();
            case StringValue(String s) -> string(s);
            case TimestampValue(var instant) -> "Timestamp(" + string(instant.toString()) + ")";
            case UnreadableValue(String reason) -> "<unreadable: " + reason + ">";
            case ListValue(List<Value> elements) ->
                elements.stream().map(Printer::value).collect(Collectors.joining(", ", "[", "]"));
            // Structs have no literal syntax; this is the notation of Turnkey's documentation.
            case StructValue(Map<String, Value> fields) ->
                fields.entrySet().stream()
                        .sorted(Map.Entry.comparingByKey())
                        .map(field -> field.getKey() + ": " + value(field.getValue()))
                        .collect(Collectors.joining(", ", "{", "}"));
        };
    }

    /** The value's type with its article, for messages: "an int", "a string". */
    static String typeOf(Value value) {
        return (value instanceof IntValue ? "an " : "a ") + value.typeName();
    }

    static String string(String content) {
        return "'" + content.replace("\\", "\\\\").replace("'", "\\'") + "'";
    }

    /** Operators bind looser than access, so an operator expression before '.' or '[' needs parentheses. */
    private static String receiver(Node node) {
        return switch (node) {
            case Node.Logical _, Node.Comparison _, Node.Not _ -> "(" + print(node) + ")";
            default -> print(node);
        };
    }

    /** Nested operators are parenthesized, which keeps the tree's shape (including explicit grouping) on reparse. */
    private static String operand(Node node) {
        return switch (node) {
            case Node.Logical _, Node.Comparison _ -> "(" + print(node) + ")";
            default -> print(node);
        };
    }
}
