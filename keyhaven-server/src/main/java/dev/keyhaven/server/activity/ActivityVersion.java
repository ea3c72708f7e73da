package dev.keyhaven.server.activity;

import java.util.function.UnaryOperator;

/**
 * One accepted version of an operation: the {@code type} an envelope names, the keys under which the activity's
 * {@code intent} and {@code result} carry that version's shapes, and how the handler's result is shown to a client of
 * that version ({@code resultView}: the identity, except for older versions whose result had another shape, such as
 * {@code createPrivateKeysResult}'s bare ids).
 */
public record ActivityVersion(ActivityType type, String intentKey, String resultKey, UnaryOperator<Object> resultView) {

    public ActivityVersion(ActivityType type, String intentKey, String resultKey) {
        this(type, intentKey, resultKey, UnaryOperator.identity());
    }
}
