package dev.keyhaven.server.activity;

/** The outcome of authorizing an activity with the votes it has so far. */
public sealed interface Decision {

    /** The activity may execute now. */
    record Allow(String reason) implements Decision {
    }

    /** More approvals could allow it; it waits in CONSENSUS_NEEDED. */
    record NeedsConsensus(String reason) implements Decision {
    }

    /** It must not execute; it ends FAILED with this reason. */
    record Deny(String reason) implements Decision {
    }
}
