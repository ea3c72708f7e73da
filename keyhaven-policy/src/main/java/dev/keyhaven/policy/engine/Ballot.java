package dev.keyhaven.policy.engine;

import dev.keyhaven.policy.Environment;
import java.util.List;

/**
 * The environments one activity is evaluated in: {@link #current()} binds every keyword with the approvals so far;
 * {@link #withMoreApprovals()} are the same activity with more users' approvals added, used only to tell an ALLOW
 * policy that more votes could satisfy ({@code OUTCOME_REQUIRES_CONSENSUS}) from one they never could. The engine asks
 * for those only when an applicable ALLOW policy's consensus is not yet met, so they may be built lazily.
 */
public interface Ballot {

    Environment current();

    /**
     * Hypothetical environments with more approvers. A consensus expression need not be monotone
     * ({@code approvers.count() == 2}), so a good set grows the approvals one user at a time as well as adding
     * everyone who could still vote.
     */
    List<Environment> withMoreApprovals();
}
