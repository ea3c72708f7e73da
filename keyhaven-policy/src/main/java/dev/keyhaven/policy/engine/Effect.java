package dev.keyhaven.policy.engine;

/** What a policy does to the activities it applies to. */
public enum Effect {
    ALLOW,
    DENY
}
