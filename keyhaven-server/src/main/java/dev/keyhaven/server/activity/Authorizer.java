package dev.keyhaven.server.activity;

import dev.keyhaven.server.tx.Tx;

/** Decides whether an activity may execute, must wait for more votes, or is denied. */
@FunctionalInterface
public interface Authorizer {
    Decision decide(Tx tx, AuthorizationRequest request);
}
