package dev.keyhaven.server.activity;

import dev.keyhaven.policy.engine.Outcome;
import dev.keyhaven.policy.engine.PolicyOutcome;
import java.util.List;

/**
 * Makes the app proofs of one decision on an activity whose request set {@code generateAppProofs}: one for the policy
 * outcome and, when it executed, one for every address it created. Implemented by the {@code proof} feature.
 */
public interface AppProver {
    /** Proves nothing (a server without a proof key). */
    AppProver NONE = (activity, policies, overall, addresses) -> List.of();

    List<AppProof> prove(
            Activity decided, List<PolicyOutcome> policies, Outcome overall, List<CreatedAddress> addresses);
}
