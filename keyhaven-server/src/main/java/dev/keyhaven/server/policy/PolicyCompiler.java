package dev.keyhaven.server.policy;

import dev.keyhaven.policy.PolicyExpression;
import dev.keyhaven.policy.PolicyParseException;
import dev.keyhaven.policy.Vocabulary;
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
     * Checks that {@code source} compiles (empty is allowed: it means true) and names only what Keyhaven binds for
     * some activity ({@link PolicyVocabulary}), with accesses and comparisons that can work on those shapes.
     *
     * @param field the JSON path of the expression in the request, reported with the error
     * @throws ApiException 400 {@code invalid policy <role>: <problem> at column <n> (<field>)}, naming every
     *     problem
     */
    static void check(String role, String field, String source) {
        if (source.isBlank()) {
            return;
        }
        PolicyExpression expression;
        try {
            expression = PolicyExpression.parse(source);
        } catch (PolicyParseException e) {
            throw new ApiException(
                    ErrorCode.BAD_REQUEST,
                    "invalid policy " + role + ": " + e.getMessage() + " (" + field + ")",
                    field);
        }
        List<Vocabulary.Problem> problems = PolicyVocabulary.VOCABULARY.check(expression);
        if (!problems.isEmpty()) {
            throw new ApiException(
                    ErrorCode.BAD_REQUEST,
                    "invalid policy " + role + ": "
                            + problems.stream()
                                    .map(Vocabulary.Problem::toString)
                                    .collect(Collectors.joining("; ")) + " (" + field + ")",
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
