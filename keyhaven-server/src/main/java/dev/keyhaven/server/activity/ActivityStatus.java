package dev.keyhaven.server.activity;

import dev.keyhaven.server.api.WireEnum;

/** The lifecycle states of an activity ({@code ACTIVITY_STATUS_<constant>} on the wire). */
public enum ActivityStatus implements WireEnum {
    CREATED,
    PENDING,
    COMPLETED,
    FAILED,
    CONSENSUS_NEEDED,
    REJECTED,
    AUTHENTICATORS_NEEDED;

    @Override
    public String wireName() {
        return "ACTIVITY_STATUS_" + name();
    }

    /** Whether no vote or execution can change the activity any more. */
    public boolean isTerminal() {
        return this == COMPLETED || this == FAILED || this == REJECTED;
    }
}
