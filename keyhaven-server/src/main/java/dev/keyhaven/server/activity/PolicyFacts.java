package dev.keyhaven.server.activity;

import dev.keyhaven.policy.Value;
import java.util.HashMap;
import java.util.Map;

/**
 * What policy conditions may read about one activity beyond its type (turnkey-api.md §4): {@code activity.params}
 * (only the parameters Turnkey exposes for the activity type) and the keywords for what the activity acts on, e.g.
 * {@code wallet}, {@code wallet_account}, {@code private_key}, {@code eth}. A keyword an activity does not populate
 * is absent, so a policy that reads it evaluates to an error. Which handler populates what is listed in
 * ARCHITECTURE.md ("Policy variables").
 */
public record PolicyFacts(Map<String, Value> params, Map<String, Value> keywords) {
    public static final PolicyFacts NONE = new PolicyFacts(Map.of(), Map.of());

    public PolicyFacts {
        params = Map.copyOf(params);
        keywords = Map.copyOf(keywords);
    }

    /** Facts with only {@code activity.params}. */
    public static PolicyFacts params(Map<String, Value> params) {
        return new PolicyFacts(params, Map.of());
    }

    /** These facts with one more keyword. */
    public PolicyFacts with(String keyword, Value value) {
        Map<String, Value> more = new HashMap<>(keywords);
        more.put(keyword, value);
        return new PolicyFacts(params, more);
    }
}
