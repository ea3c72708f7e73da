package dev.keyhaven.server.activity;

import dev.keyhaven.policy.engine.Outcome;
import dev.keyhaven.policy.engine.PolicyOutcome;
import java.util.List;

/**
 * The outcome of authorizing an activity with the votes it has so far, with the evaluated policies' outcomes (empty
 * when no policy was evaluated, e.g. the root quorum approved).
 */
public sealed interface Decision {

    List<PolicyOutcome> policies();

    /** Why, in words: which policy or rule decided. */
    String reason();

    /** The overall outcome recorded with the vote. */
    Outcome overall();

    /** The activity may execute now. */
    record Allow(String reason, List<PolicyOutcome> policies) implements Decision {
        public Allow(String reason) {
            this(reason, List.of());
        }

        @Override
        public Outcome overall() {
            return Outcome.ALLOW;
        }
    }

    /** More approvals could allow it; it waits in CONSENSUS_NEEDED. */
    record NeedsConsensus(String reason, List<PolicyOutcome> policies) implements Decision {
        public NeedsConsensus(String reason) {
            this(reason, List.of());
        }

        @Override
        public Outcome overall() {
            return Outcome.REQUIRES_CONSENSUS;
        }
    }

    /** It must not execute; it ends FAILED with this reason. {@code explicit} when a DENY policy said so. */
    record Deny(String reason, boolean explicit, List<PolicyOutcome> policies) implements Decision {
        public Deny(String reason) {
            this(reason, false, List.of());
        }

        @Override
        public Outcome overall() {
            return explicit ? Outcome.DENY_EXPLICIT : Outcome.DENY_IMPLICIT;
        }
    }
}
