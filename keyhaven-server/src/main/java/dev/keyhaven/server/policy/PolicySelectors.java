package dev.keyhaven.server.policy;

import dev.keyhaven.policy.ValueType;
import dev.keyhaven.server.api.ApiException;
import dev.keyhaven.server.api.Params;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Translates the selectors of {@code create_policy} V1 and V2 ({@code {subject, operator, target}}, V2
 * {@code targets[]}) into one condition of the policy language, the selectors AND-ed. The retired selector engine's
 * semantics are not published, so the translation is deliberately narrow and fails closed: a selector is translated
 * only when its subject is a path Keyhaven binds ({@link PolicyVocabulary}) to a string, an int, a bool or a list of
 * strings or ints, and its operator and target(s) have exactly one reading for that type. Anything else is a 400
 * naming the selector's field, never a guess, because a policy read slightly wrong could allow what its author meant
 * to deny. The condition is written as source and then checked like any V3 condition ({@link PolicyCompiler#check}),
 * and it is what is stored, so {@code get_policy} shows what is enforced.
 */
final class PolicySelectors {
    /** Dotted field names only: no indexing, calls or spaces, so a subject can never smuggle in an expression. */
    private static final Pattern PATH = Pattern.compile("[a-z_][a-z0-9_]*(\\.[a-z_][a-z0-9_]*)*");

    /** The language's integers: non-negative decimal digits without a sign or leading zeros. */
    private static final Pattern INTEGER = Pattern.compile("0|[1-9][0-9]{0,17}");

    private PolicySelectors() {}

    /** Whether the selectors carry one {@code target} (V1) or a {@code targets} array (V2). */
    enum Form {
        V1("target"),
        V2("targets");

        final String field;

        Form(String field) {
            this.field = field;
        }
    }

    /** Reads a {@code createPolicyIntent} (V1). */
    static PolicyDraft readV1(Params p) {
        return read(p, Form.V1);
    }

    /** Reads a {@code createPolicyIntentV2}. */
    static PolicyDraft readV2(Params p) {
        return read(p, Form.V2);
    }

    private static PolicyDraft read(Params p, Form form) {
        String name = p.requiredString("policyName");
        if (name.isBlank()) {
            throw ApiException.badField(p.pathOf("policyName"), "must not be blank");
        }
        PolicyEffect effect = p.requiredEnum("effect", PolicyEffect.class);
        List<String> parts = p.requiredObjects("selectors", s -> selector(s, form));
        if (parts.isEmpty()) {
            // No selector would be a condition that is always true: an ALLOW of everything nobody wrote.
            throw ApiException.badField(p.pathOf("selectors"), "must name at least one selector");
        }
        String condition = String.join(" && ", parts);
        PolicyCompiler.check("condition", p.pathOf("selectors"), condition);
        // V1 and V2 had no consensus: the policy applies whoever approved, as the empty (true) consensus says.
        return new PolicyDraft(
                name,
                effect,
                condition,
                "",
                Optional.empty(),
                p.optionalString("notes").orElse(""));
    }

    /** One selector as a condition that needs no parentheses around it when AND-ed. */
    static String selector(Params s, Form form) {
        Form other = form == Form.V1 ? Form.V2 : Form.V1;
        if (s.has(other.field)) {
            throw ApiException.badField(
                    s.pathOf(other.field), "is not a field of this version's selectors (they have " + form.field + ")");
        }
        String subject = s.requiredString("subject");
        ValueType type = subjectType(subject, s.pathOf("subject"));
        SelectorOperator operator = s.requiredEnum("operator", SelectorOperator.class);
        List<String> targets = form == Form.V1 ? List.of(s.requiredString("target")) : s.requiredStrings("targets");
        String targetField = s.pathOf(form.field);
        String operatorField = s.pathOf("operator");
        return switch (type) {
            case ValueType.Scalar scalar ->
                scalar(subject, scalar, operator, operatorField, targets, targetField, form);
            case ValueType.ListOf list ->
                list(subject, (ValueType.Scalar) list.element(), operator, operatorField, targets, targetField, form);
            default -> throw new IllegalStateException("subjectType returned " + type);
        };
    }

    private static String scalar(
            String subject,
            ValueType.Scalar type,
            SelectorOperator operator,
            String operatorField,
            List<String> targets,
            String targetField,
            Form form) {
        return switch (operator) {
            case EQUAL -> subject + " == " + literal(type, one(targets, targetField, operator), targetField);
            case NOT_EQUAL -> subject + " != " + literal(type, one(targets, targetField, operator), targetField);
            case MORE_THAN, MORE_THAN_OR_EQUAL, LESS_THAN, LESS_THAN_OR_EQUAL -> {
                if (type != ValueType.INT) {
                    // Ordering strings (by code point? by number?) is the kind of reading that cannot be shown exact.
                    throw notApplicable(operatorField, operator, subject, type);
                }
                yield subject + " " + operator.symbol + " "
                        + literal(type, one(targets, targetField, operator), targetField);
            }
            case IN -> subject + " in " + list(type, many(targets, targetField, operator, form), targetField);
            case NOT_IN ->
                "!(" + subject + " in " + list(type, many(targets, targetField, operator, form), targetField) + ")";
            // CONTAINS on a string could be a substring test or a membership test: refused rather than guessed.
            case CONTAINS, CONTAINS_ONE, CONTAINS_ALL -> throw notApplicable(operatorField, operator, subject, type);
        };
    }

    private static String list(
            String subject,
            ValueType.Scalar element,
            SelectorOperator operator,
            String operatorField,
            List<String> targets,
            String targetField,
            Form form) {
        return switch (operator) {
            case CONTAINS -> contains(subject, element, one(targets, targetField, operator), targetField);
            case CONTAINS_ONE -> {
                List<String> each = many(targets, targetField, operator, form).stream()
                        .map(t -> contains(subject, element, t, targetField))
                        .toList();
                yield each.size() == 1 ? each.getFirst() : "(" + String.join(" || ", each) + ")";
            }
            case CONTAINS_ALL ->
                many(targets, targetField, operator, form).stream()
                        .map(t -> contains(subject, element, t, targetField))
                        .collect(Collectors.joining(" && "));
            // Equality of lists (is order significant? duplicates?) and IN on a list have no single reading.
            default -> throw notApplicable(operatorField, operator, subject, ValueType.listOf(element));
        };
    }

    private static String contains(String subject, ValueType.Scalar element, String target, String targetField) {
        return subject + ".contains(" + literal(element, target, targetField) + ")";
    }

    /** The type the vocabulary gives {@code subject}, when it is one a selector can be translated for. */
    private static ValueType subjectType(String subject, String field) {
        if (!PATH.matcher(subject).matches()) {
            throw ApiException.badField(field, "must be a dotted path such as activity.type");
        }
        String[] names = subject.split("\\.", -1);
        Optional<ValueType> found = PolicyVocabulary.VOCABULARY.keyword(names[0]);
        for (int i = 1; i < names.length && found.isPresent(); i++) {
            String name = names[i];
            found = found.get() instanceof ValueType.StructOf struct
                    ? Optional.ofNullable(struct.fields().get(name))
                    : Optional.empty();
        }
        ValueType type = found.orElseThrow(() ->
                ApiException.badField(field, "'" + subject + "' is not a path Keyhaven's policy vocabulary binds"));
        boolean translatable = switch (type) {
            case ValueType.Scalar scalar -> scalar != ValueType.TIMESTAMP;
            case ValueType.ListOf list -> list.element() == ValueType.STRING || list.element() == ValueType.INT;
            default -> false;
        };
        if (!translatable) {
            throw ApiException.badField(
                    field,
                    "'" + subject + "' holds " + type.name()
                            + "; selectors are translated only for a string, int, bool or list of strings or ints"
                            + " (use ACTIVITY_TYPE_CREATE_POLICY_V3 with a condition)");
        }
        return type;
    }

    private static String one(List<String> targets, String field, SelectorOperator operator) {
        if (targets.size() != 1) {
            throw ApiException.badField(
                    field, "must hold exactly one target for " + operator.wire() + " (it has " + targets.size() + ")");
        }
        return targets.getFirst();
    }

    private static List<String> many(List<String> targets, String field, SelectorOperator operator, Form form) {
        if (form == Form.V1) {
            // Whether V1's one string held a list (comma-separated? JSON?) is not documented: V2's targets say it.
            throw ApiException.badField(
                    field,
                    "is one value, but " + operator.wire()
                            + " takes a list: send ACTIVITY_TYPE_CREATE_POLICY_V2 with targets");
        }
        if (targets.isEmpty()) {
            throw ApiException.badField(field, "must hold at least one target for " + operator.wire());
        }
        return targets;
    }

    private static String list(ValueType.Scalar type, List<String> targets, String field) {
        List<String> out = new ArrayList<>(targets.size());
        for (int i = 0; i < targets.size(); i++) {
            out.add(literal(type, targets.get(i), field + "[" + i + "]"));
        }
        return "[" + String.join(", ", out) + "]";
    }

    /** {@code target} as a literal of {@code type}, or a 400 when it is not exactly one. */
    private static String literal(ValueType.Scalar type, String target, String field) {
        if (type == ValueType.STRING) {
            return "'" + target.replace("\\", "\\\\").replace("'", "\\'") + "'";
        }
        if (type == ValueType.INT) {
            if (!INTEGER.matcher(target).matches()) {
                throw ApiException.badField(
                        field, "must be a non-negative integer written in decimal digits (the subject holds an int)");
            }
            return target;
        }
        if (type == ValueType.BOOL) {
            if (!target.equals("true") && !target.equals("false")) {
                throw ApiException.badField(field, "must be true or false (the subject holds a bool)");
            }
            return target;
        }
        throw new IllegalStateException("no literal for " + type);
    }

    private static ApiException notApplicable(String field, SelectorOperator operator, String subject, ValueType type) {
        String held = type instanceof ValueType.ListOf list
                ? "a list of " + list.element().name() + "s"
                : type.name();
        return ApiException.badField(
                field,
                operator.wire() + " has no exact meaning for '" + subject + "', which holds " + held
                        + " (use ACTIVITY_TYPE_CREATE_POLICY_V3 with a condition)");
    }
}
