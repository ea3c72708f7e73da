package dev.keyhaven.server.activity;

/**
 * One accepted version of an operation: the {@code type} an envelope names, and the keys under which the
 * activity's {@code intent} and {@code result} carry that version's shapes.
 */
public record ActivityVersion(ActivityType type, String intentKey, String resultKey) {}
