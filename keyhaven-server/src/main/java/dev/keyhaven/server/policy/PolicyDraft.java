package dev.keyhaven.server.policy;

import dev.keyhaven.server.api.ApiException;
import dev.keyhaven.server.api.Params;
import java.util.Optional;

/**
 * A policy's fields as a create or update intent gives them, validated: the name is not blank and every expression
 * compiles and names only what Keyhaven binds ({@link PolicyCompiler#check}), so that nothing that cannot be
 * evaluated is ever stored.
 */
record PolicyDraft(
        String name, PolicyEffect effect, String condition, String consensus, Optional<String> time, String notes) {

    /** Reads a {@code v1CreatePolicyIntentV3}. */
    static PolicyDraft read(Params p) {
        return new PolicyDraft(
                name(p, "policyName"),
                p.requiredEnum("effect", PolicyEffect.class),
                expression(p, "condition", "condition"),
                expression(p, "consensus", "consensus"),
                time(p, "time"),
                notes(p, "notes"));
    }

    /** Applies the optional fields of a {@code v1UpdatePolicyIntentV2} to {@code current}. */
    static PolicyDraft update(Policy current, Params p) {
        return new PolicyDraft(
                p.has("policyName") ? name(p, "policyName") : current.name(),
                p.optionalEnum("policyEffect", PolicyEffect.class).orElse(current.effect()),
                p.has("policyCondition") ? expression(p, "policyCondition", "condition") : current.condition(),
                p.has("policyConsensus") ? expression(p, "policyConsensus", "consensus") : current.consensus(),
                p.has("time") ? time(p, "time") : current.time(),
                p.has("policyNotes") ? notes(p, "policyNotes") : current.notes());
    }

    /** Checks an update's fields before the policy is read, so that a malformed request writes nothing. */
    static void checkUpdate(Params p) {
        if (p.has("policyName")) {
            name(p, "policyName");
        }
        p.optionalEnum("policyEffect", PolicyEffect.class);
        if (p.has("policyCondition")) {
            expression(p, "policyCondition", "condition");
        }
        if (p.has("policyConsensus")) {
            expression(p, "policyConsensus", "consensus");
        }
        time(p, "time");
        if (p.has("policyNotes")) {
            notes(p, "policyNotes");
        }
    }

    private static String name(Params p, String field) {
        String name = p.requiredString(field);
        if (name.isBlank()) {
            throw ApiException.badField(p.pathOf(field), "must not be blank");
        }
        return name;
    }

    private static String expression(Params p, String field, String role) {
        String source = p.optionalString(field).orElse("");
        PolicyCompiler.check(role, p.pathOf(field), source);
        return source;
    }

    /** An empty time is the same as none: always active. */
    private static Optional<String> time(Params p, String field) {
        Optional<String> source = p.optionalString(field).filter(s -> !s.isBlank());
        source.ifPresent(s -> PolicyCompiler.check("time", p.pathOf(field), s));
        return source;
    }

    private static String notes(Params p, String field) {
        return p.optionalString(field).orElse("");
    }
}
