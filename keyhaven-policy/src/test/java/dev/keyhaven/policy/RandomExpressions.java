package dev.keyhaven.policy;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Random well-formed expressions over the names of {@link PolicyFuzzTest}'s sample environment. They are mostly
 * well-typed, so evaluation reaches deep into them; one atom in twenty is of a random type, to exercise the errors.
 */
final class RandomExpressions {
    private enum Type {
        BOOL,
        INT,
        STRING,
        STRINGS,
        INTS,
        USERS,
        USER,
        TIMESTAMP
    }

    private final Random random;
    /** The predicate variables in scope, innermost last, with their element types. */
    private final List<String> variables = new ArrayList<>();

    private final List<Type> variableTypes = new ArrayList<>();

    RandomExpressions(Random random) {
        this.random = random;
    }

    String bool(int depth) {
        return generate(Type.BOOL, depth);
    }

    private String generate(Type type, int depth) {
        if (depth == 0 || random.nextInt(5) == 0) {
            return atom(random.nextInt(20) == 0 ? Type.values()[random.nextInt(Type.values().length)] : type);
        }
        int d = depth - 1;
        return switch (type) {
            case BOOL ->
                switch (random.nextInt(11)) {
                    case 0 -> generate(Type.BOOL, d) + " && " + generate(Type.BOOL, d);
                    case 1 -> "(" + generate(Type.BOOL, d) + " || " + generate(Type.BOOL, d) + ")";
                    case 2 -> "!(" + generate(Type.BOOL, d) + ")";
                    case 3 -> generate(Type.INT, d) + pick(" < ", " >= ", " == ", " != ") + generate(Type.INT, d);
                    case 4 -> generate(Type.STRING, d) + pick(" == ", " != ") + generate(Type.STRING, d);
                    case 5 -> generate(Type.TIMESTAMP, d) + pick(" < ", " >= ") + generate(Type.TIMESTAMP, d);
                    case 6 -> generate(Type.STRING, d) + " in " + generate(Type.STRINGS, d);
                    case 7 -> generate(Type.STRINGS, d) + ".contains(" + generate(Type.STRING, d) + ")";
                    case 8 -> predicate(Type.USERS, Type.USER, pick("any", "all"), d);
                    case 9 -> predicate(Type.INTS, Type.INT, pick("any", "all"), d);
                    default -> predicate(Type.STRINGS, Type.STRING, pick("any", "all"), d);
                };
            case INT ->
                switch (random.nextInt(3)) {
                    case 0 -> generate(Type.STRINGS, d) + pick(".count()", ".count");
                    case 1 -> predicate(Type.USERS, Type.USER, "filter", d) + ".count()";
                    default -> "(" + generate(Type.INTS, d) + ")[" + random.nextInt(3) + "]";
                };
            case STRING ->
                switch (random.nextInt(3)) {
                    case 0 ->
                        "(" + generate(Type.STRING, d) + ")[" + random.nextInt(3) + ".." + (2 + random.nextInt(3))
                                + "]";
                    case 1 -> "(" + generate(Type.STRINGS, d) + ")[" + random.nextInt(3) + "]";
                    default -> generate(Type.USER, d) + ".id";
                };
            case STRINGS ->
                switch (random.nextInt(3)) {
                    case 0 -> predicate(Type.STRINGS, Type.STRING, "filter", d);
                    case 1 -> generate(Type.USER, d) + ".tags";
                    default -> "[" + generate(Type.STRING, d) + ", " + generate(Type.STRING, d) + "]";
                };
            case INTS ->
                random.nextBoolean()
                        ? predicate(Type.INTS, Type.INT, "filter", d)
                        : "[" + generate(Type.INT, d) + ", " + generate(Type.INT, d) + "]";
            case USERS -> predicate(Type.USERS, Type.USER, "filter", d);
            case USER -> "(" + generate(Type.USERS, d) + ")[" + random.nextInt(2) + "]";
            case TIMESTAMP -> atom(Type.TIMESTAMP);
        };
    }

    private String predicate(Type listType, Type elementType, String function, int depth) {
        String list = generate(listType, depth);
        String variable = "v" + variables.size();
        variables.add(variable);
        variableTypes.add(elementType);
        String body = generate(Type.BOOL, depth);
        variables.removeLast();
        variableTypes.removeLast();
        return "(" + list + ")." + function + "(" + variable + ", " + body + ")";
    }

    private String atom(Type type) {
        int bound = variableTypes.lastIndexOf(type);
        if (bound >= 0 && random.nextBoolean()) {
            return variables.get(bound);
        }
        return switch (type) {
            case BOOL ->
                pick(
                        "true",
                        "false",
                        "CronSpan('0 9 * * 1-5', '8h', 'America/New_York')",
                        "missing.flag",
                        "CronSpan('0 9 * * MON', '8h', 'UTC')");
            case INT -> pick("0", "2", "a", "eth.tx.chain_id", IntValue.MAX.toString(), "eth.tx.value");
            case STRING ->
                pick("'ops'", "'u1'", "''", "'it\\'s'", "s", "activity.action", "eth.tx.data", "eth.tx.function_name");
            case STRINGS -> pick("tags", "activity.params.user_ids", "[]", "['ops', 'dev']");
            case INTS -> pick("[1, 2, 3]", "[]", "[0]");
            case USERS -> "users";
            case USER -> "users[0]";
            case TIMESTAMP -> pick("time.now", "Timestamp('2026-03-01T00:00:00Z')", "Timestamp('2026-03-01')");
        };
    }

    private String pick(String... choices) {
        return choices[random.nextInt(choices.length)];
    }
}
