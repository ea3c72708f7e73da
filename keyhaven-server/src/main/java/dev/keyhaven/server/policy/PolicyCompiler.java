package dev.keyhaven.server.policy;

import dev.keyhaven.policy.PolicyExpression;
import dev.keyhaven.policy.PolicyParseException;
import dev.keyhaven.policy.engine.CompiledPolicy;
import dev.keyhaven.server.api.ApiException;
import dev.keyhaven.server.api.ErrorCode;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Compiles policy expressions, remembering each source's compiled form. A stored policy that names something the
 * vocabulary lacks (stored before Keyhaven checked) compiles as not {@linkplain CompiledPolicy#understood()
 * understood}, so as a DENY it fails closed. An expression's meaning depends only on its
 * text, so the cache needs no invalidation: an updated policy simply brings new text. The cache is bounded; when
 * full it is cleared and refills with what is in use.
 */
final class PolicyCompiler {
    private static final int REMEMBERED_EXPRESSIONS = 10_000;

    private final Map<String, PolicyExpression> compiled = new ConcurrentHashMap<>();

    /**
     * One thing wrong with an expression: what, and where. {@code column} is 1-based and counts UTF-16 units from
     * the start of the source (a line break counts as one), as the policy language reports it.
     */
    record ExpressionProblem(String message, int column) {
        @Override
        public String toString() {
            return message + " at column " + column;
        }
    }

    /**
     * Every problem of {@code source}: its parse error, or else everything it names or does that Keyhaven binds for
     * no activity ({@link PolicyVocabulary}); empty when it may be stored. An empty source means true and has none.
     * This is the one check behind {@link #check} (create and update) and {@code check_policy}, so that the two
     * cannot disagree.
     */
    static List<ExpressionProblem> problems(String source) {
        if (source.isBlank()) {
            return List.of();
        }
        PolicyExpression expression;
        try {
            expression = PolicyExpression.parse(source);
        } catch (PolicyParseException e) {
            return List.of(new ExpressionProblem(e.problem(), e.column()));
        }
        return PolicyVocabulary.VOCABULARY.check(expression).stream()
                .map(p -> new ExpressionProblem(p.message(), p.column()))
                .toList();
    }

    /**
     * Checks that {@code source} compiles (empty is allowed: it means true) and names only what Keyhaven binds for
     * some activity ({@link PolicyVocabulary}), with accesses and comparisons that can work on those shapes.
     *
     * @param field the JSON path of the expression in the request, reported with the error
     * @throws ApiException 400 {@code invalid policy <role>: <problem> at column <n> (<field>)}, naming every
     *     problem
     */
    static void check(String role, String field, String source) {
        List<ExpressionProblem> problems = problems(source);
        if (!problems.isEmpty()) {
            throw new ApiException(
                    ErrorCode.BAD_REQUEST,
                    "invalid policy " + role + ": "
                            + problems.stream().map(ExpressionProblem::toString).collect(Collectors.joining("; "))
                            + " (" + field + ")",
                    field);
        }
    }

    /**
     * The policy ready to evaluate, or empty when a stored expression no longer compiles (only a change of the
     * language's limits could do that; the policy then counts as an evaluation error).
     */
    Optional<CompiledPolicy> compile(Policy policy) {
        try {
            PolicyExpression condition = expression(policy.condition());
            PolicyExpression consensus = expression(policy.consensus());
            PolicyExpression time = policy.time().map(this::expression).orElse(PolicyExpression.alwaysTrue());
            boolean understood = Stream.of(condition, consensus, time)
                    .allMatch(e -> PolicyVocabulary.VOCABULARY.check(e).isEmpty());
            return Optional.of(
                    new CompiledPolicy(policy.id(), policy.effect().effect(), condition, consensus, time, understood));
        } catch (PolicyParseException e) {
            return Optional.empty();
        }
    }

    private PolicyExpression expression(String source) {
        if (source.isBlank()) {
            return PolicyExpression.alwaysTrue();
        }
        PolicyExpression known = compiled.get(source);
        if (known != null) {
            return known;
        }
        PolicyExpression fresh = PolicyExpression.parse(source);
        if (compiled.size() >= REMEMBERED_EXPRESSIONS) {
            compiled.clear();
        }
        compiled.put(source, fresh);
        return fresh;
    }
}
