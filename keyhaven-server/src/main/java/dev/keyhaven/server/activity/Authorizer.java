package dev.keyhaven.server.activity;

import dev.keyhaven.server.state.StateReads;

/** Decides whether an activity may execute, must wait for more votes, or is denied. */
@FunctionalInterface
public interface Authorizer {
    Decision decide(StateReads organization, AuthorizationRequest request);
}
