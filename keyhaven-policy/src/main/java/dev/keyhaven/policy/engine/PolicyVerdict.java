package dev.keyhaven.policy.engine;

import java.util.List;

/** What an organization's policies say about one activity, with each policy's outcome in the order given. */
public record PolicyVerdict(Verdict verdict, List<PolicyOutcome> outcomes) {

    public PolicyVerdict {
        outcomes = List.copyOf(outcomes);
    }

    /** The combined effect of the policies. */
    public enum Verdict {
        /** An applicable DENY policy's consensus is met. */
        DENY,
        /** No DENY; an applicable ALLOW policy's consensus is met. */
        ALLOW,
        /** No DENY, no satisfied ALLOW; an applicable ALLOW policy's consensus more approvals could meet. */
        NEEDS_CONSENSUS,
        /** No policy decided: the server's implicit rules follow. */
        NONE
    }
}
