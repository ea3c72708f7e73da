package dev.keyhaven.policy;

import java.util.Map;
import java.util.Optional;

/**
 * Supplies the values of top-level keywords ({@code activity}, {@code approvers}, {@code eth}, {@code time}, …) to one
 * evaluation. Dotted keywords are field access: {@code eth.tx} is field {@code tx} of the struct bound to {@code eth},
 * and {@code time.now} is field {@code now} of the struct bound to {@code time}.
 *
 * <p>The evaluator asks only for keywords the expression references (see
 * {@link PolicyExpression#referencedKeywords()}), and may ask for the same keyword more than once, so a lazy
 * implementation should remember what it computed. A keyword the environment does not have is a
 * {@code MISSING_FIELD} error, the way Turnkey treats e.g. {@code wallet} when an activity signs with a private key.
 */
@FunctionalInterface
public interface Environment {

    /** The value bound to {@code keyword}, or empty if the activity does not populate it. */
    Optional<Value> lookup(String keyword);

    static Environment of(Map<String, ? extends Value> keywords) {
        Map<String, Value> copy = Map.copyOf(keywords);
        return keyword -> Optional.ofNullable(copy.get(keyword));
    }

    static Environment empty() {
        return keyword -> Optional.empty();
    }
}
