package dev.keyhaven.policy;

import java.util.Objects;
import java.util.Set;

/**
 * A compiled policy expression: a {@code consensus}, {@code condition} or {@code time} field of a Turnkey policy.
 * Immutable and thread-safe: compile once per policy version, cache, and evaluate from any number of threads.
 *
 * <pre>
 * PolicyExpression condition = PolicyExpression.parse("activity.action == 'SIGN' &amp;&amp; wallet.id == 'w-1'");
 * switch (condition.evaluate(environment)) {
 *     case EvaluationResult.Decided(boolean applies) -&gt; …
 *     case EvaluationError error -&gt; … // OUTCOME_ERROR
 * }
 * </pre>
 *
 * <p>An empty or blank source is not an expression ({@link #parse} rejects it); Turnkey treats an absent or empty
 * field as always true, which {@link #alwaysTrue()} provides for the caller to use in that case.
 */
public final class PolicyExpression {
    private static final PolicyExpression ALWAYS_TRUE = parse("true");

    private final String source;
    private final Node root;
    private final Set<String> referencedKeywords;
    private final int variableSlots;

    private PolicyExpression(String source, Parser.Parsed parsed) {
        this.source = source;
        this.root = parsed.root();
        this.referencedKeywords = parsed.keywords();
        this.variableSlots = parsed.variableSlots();
    }

    /**
     * Compiles {@code source}. Any identifier that is not a predicate variable is accepted as a keyword; whether the
     * environment has it is found out when evaluating.
     *
     * @throws PolicyParseException if the source is not a well-formed expression or exceeds a parse limit in
     *     {@link Limits}; no other exception is thrown for any string
     */
    public static PolicyExpression parse(String source) {
        Objects.requireNonNull(source, "source");
        return new PolicyExpression(source, Parser.parse(source));
    }

    /** The expression {@code true}, for a policy field that is absent or empty. */
    public static PolicyExpression alwaysTrue() {
        return ALWAYS_TRUE;
    }

    /**
     * Evaluates against {@code environment}. Never throws (except what the environment itself throws): every problem,
     * including exceeding {@link Limits#MAX_EVALUATION_STEPS}, is an {@link EvaluationError}.
     */
    public EvaluationResult evaluate(Environment environment) {
        Objects.requireNonNull(environment, "environment");
        return Evaluator.evaluate(root, variableSlots, environment);
    }

    /**
     * The top-level keywords the expression reads, e.g. {@code {"activity", "wallet"}}; {@code eth.tx} reads
     * {@code eth}, and {@code CronSpan(…)} reads {@code time}. Predicate variables are not keywords.
     */
    public Set<String> referencedKeywords() {
        return referencedKeywords;
    }

    /** The source as given to {@link #parse}. */
    public String source() {
        return source;
    }

    /** The tree, for tests and the printer. */
    Node root() {
        return root;
    }

    @Override
    public String toString() {
        return source;
    }
}
