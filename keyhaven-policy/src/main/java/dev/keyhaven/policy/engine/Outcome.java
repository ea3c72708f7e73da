package dev.keyhaven.policy.engine;

/**
 * One policy's outcome for one evaluation, Turnkey's {@code v1Outcome} without its prefix. The engine produces all
 * but {@link #REJECTED} and {@link #REQUIRES_AUTHENTICATORS}: the first records a rejection vote, the second belongs to
 * MFA policies.
 */
public enum Outcome {
    /** The policy applies, its consensus is met and it allows the activity. */
    ALLOW,
    /** The policy applies, its consensus is met and it denies the activity; deny always wins. */
    DENY_EXPLICIT,
    /** The policy does not apply (condition false, or a deny policy's consensus not met), or no policy allowed. */
    DENY_IMPLICIT,
    /** The policy applies and allows, but only once more users approve. */
    REQUIRES_CONSENSUS,
    /** A rejection vote ended the activity. */
    REJECTED,
    /** An expression of the policy failed to evaluate (e.g. it read {@code wallet.id} while signing with a key). */
    ERROR,
    /** Reserved for MFA policies. */
    REQUIRES_AUTHENTICATORS,
    /** The policy's {@code time} expression is false now, so the policy is ignored. */
    TIME_INACTIVE
}
