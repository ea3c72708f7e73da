package dev.keyhaven.policy.engine;

import dev.keyhaven.policy.PolicyExpression;
import java.util.Objects;

/**
 * A policy ready to evaluate. An absent or empty expression is {@link PolicyExpression#alwaysTrue()}, as Turnkey
 * treats it: a policy without a condition applies to everything, one without consensus needs no particular approver,
 * one without time is always active.
 */
public record CompiledPolicy(String id, Effect effect, PolicyExpression condition, PolicyExpression consensus,
        PolicyExpression time) {

    public CompiledPolicy {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(effect, "effect");
        Objects.requireNonNull(condition, "condition");
        Objects.requireNonNull(consensus, "consensus");
        Objects.requireNonNull(time, "time");
    }
}
