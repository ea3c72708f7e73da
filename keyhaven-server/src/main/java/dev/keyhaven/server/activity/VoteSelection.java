package dev.keyhaven.server.activity;

import dev.keyhaven.server.api.WireEnum;

/** A voter's choice on an activity. */
public enum VoteSelection implements WireEnum {
    APPROVED,
    REJECTED;

    @Override
    public String wireName() {
        return "VOTE_SELECTION_" + name();
    }
}
