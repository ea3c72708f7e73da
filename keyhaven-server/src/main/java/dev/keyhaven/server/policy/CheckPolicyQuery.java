package dev.keyhaven.server.policy;

import dev.keyhaven.server.api.Caller;
import dev.keyhaven.server.api.Params;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * {@code check_policy} (Keyhaven's own query, not in Turnkey's API): {@code {organizationId, effect?, condition?,
 * consensus?, time?}} → {@code {problems: [{field, column, message}]}}, what {@code create_policy} and
 * {@code update_policy} would refuse in those expressions, each at its column, without writing anything. It runs the
 * very check those activities run ({@link PolicyCompiler#problems}), so an expression it passes is one they accept;
 * the console calls it as the operator types.
 *
 * <p>Problems in the expressions are the answer (200). A request that is not one is refused as any query's would be:
 * an expression that is not a string, or an {@code effect} that is not {@code EFFECT_ALLOW} or {@code EFFECT_DENY},
 * is a 400 naming the field.
 */
public final class CheckPolicyQuery {
    /** The expression fields, in the order their problems are listed. */
    private static final List<String> EXPRESSIONS = List.of("condition", "consensus", "time");

    /** One problem of one expression, for the answer. */
    public record Problem(String field, int column, String message) {}

    private CheckPolicyQuery() {}

    /** Reads nothing stored, so it needs no instance: the route table refers to it directly. */
    public static Map<String, Object> checkPolicy(Caller caller, Params body) {
        body.optionalEnum("effect", PolicyEffect.class);
        List<Problem> problems = new ArrayList<>();
        for (String field : EXPRESSIONS) {
            String source = body.optionalString(field).orElse("");
            PolicyCompiler.problems(source).forEach(p -> problems.add(new Problem(field, p.column(), p.message())));
        }
        return Map.of("problems", List.copyOf(problems));
    }
}
