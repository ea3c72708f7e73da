package dev.keyhaven.policy.engine;

import dev.keyhaven.policy.PolicyExpression;
import java.util.Objects;

/**
 * A policy ready to evaluate. An absent or empty expression is {@link PolicyExpression#alwaysTrue()}, as Turnkey
 * treats it: a policy without a condition applies to everything, one without consensus needs no particular approver,
 * one without time is always active.
 *
 * <p>{@code understood} is false for a policy that names something the server's {@link dev.keyhaven.policy.Vocabulary}
 * does not have (one stored before the server checked, or under an older vocabulary): its missing fields are not
 * "this activity has none" but "the server does not know what this means", so as a DENY it fails closed on them too.
 */
public record CompiledPolicy(
        String id,
        Effect effect,
        PolicyExpression condition,
        PolicyExpression consensus,
        PolicyExpression time,
        boolean understood) {

    /** A policy whose every name the server understands. */
    public CompiledPolicy(
            String id, Effect effect, PolicyExpression condition, PolicyExpression consensus, PolicyExpression time) {
        this(id, effect, condition, consensus, time, true);
    }

    public CompiledPolicy {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(effect, "effect");
        Objects.requireNonNull(condition, "condition");
        Objects.requireNonNull(consensus, "consensus");
        Objects.requireNonNull(time, "time");
    }
}
