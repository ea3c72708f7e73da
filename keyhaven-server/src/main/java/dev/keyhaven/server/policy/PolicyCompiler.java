package dev.keyhaven.server.policy;

import dev.keyhaven.policy.PolicyExpression;
import dev.keyhaven.policy.PolicyParseException;
import dev.keyhaven.policy.engine.CompiledPolicy;
import dev.keyhaven.server.api.ApiException;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Compiles policy expressions, remembering each source's compiled form. An expression's meaning depends only on its
 * text, so the cache needs no invalidation: an updated policy simply brings new text. The cache is bounded; when
 * full it is cleared and refills with what is in use.
 */
final class PolicyCompiler {
    private static final int REMEMBERED_EXPRESSIONS = 10_000;

    private final Map<String, PolicyExpression> compiled = new ConcurrentHashMap<>();

    /**
     * Checks that {@code source} compiles (empty is allowed: it means true).
     *
     * @throws ApiException 400 {@code invalid policy <role>: <problem at column>}
     */
    static void check(String role, String source) {
        if (!source.isBlank()) {
            try {
                PolicyExpression.parse(source);
            } catch (PolicyParseException e) {
                throw ApiException.badRequest("invalid policy " + role + ": " + e.getMessage());
            }
        }
    }

    /**
     * The policy ready to evaluate, or empty when a stored expression no longer compiles (only a change of the
     * language's limits could do that; the policy then counts as an evaluation error).
     */
    Optional<CompiledPolicy> compile(Policy policy) {
        try {
            return Optional.of(new CompiledPolicy(policy.id(), policy.effect().effect(), expression(policy.condition()),
                    expression(policy.consensus()), policy.time().map(this::expression)
                            .orElse(PolicyExpression.alwaysTrue())));
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
