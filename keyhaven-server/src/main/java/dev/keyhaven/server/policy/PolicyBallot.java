package dev.keyhaven.server.policy;

import dev.keyhaven.policy.Environment;
import dev.keyhaven.policy.Value;
import dev.keyhaven.policy.engine.Ballot;
import dev.keyhaven.server.activity.AuthorizationRequest;
import dev.keyhaven.server.activity.PolicyFacts;
import dev.keyhaven.server.activity.Vote;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Supplier;
import tools.jackson.databind.JsonNode;

/**
 * One activity's policy environment. Keywords are computed when a policy first reads them and then remembered:
 * {@code activity} (type, kind, resource, action, params), {@code approvers} and {@code credentials} (from the
 * approvals that count), {@code time} ({@code now}: the decision's time), and whatever the handler's
 * {@link PolicyFacts} bind ({@code wallet}, {@code private_key}, {@code eth}, …).
 *
 * <p>The hypothetical environments add the organization's other users (those who have not voted), one at a time in
 * the organization's order and finally all of them, each with all of their credentials.
 */
final class PolicyBallot implements Ballot {
    private final AuthorizationRequest request;
    private final Supplier<List<JsonNode>> otherUsers;
    private final Supplier<PolicyFacts> facts;
    private final Environment current;

    PolicyBallot(AuthorizationRequest request, Supplier<List<JsonNode>> otherUsers) {
        this.request = request;
        this.otherUsers = otherUsers;
        this.facts = memoized(request.facts());
        List<Value> approvers = new ArrayList<>();
        List<Value> credentials = new ArrayList<>();
        addApprovals(approvers, credentials);
        this.current = environment(approvers, credentials);
    }

    @Override
    public Environment current() {
        return current;
    }

    @Override
    public List<Environment> withMoreApprovals() {
        List<Value> approvers = new ArrayList<>();
        List<Value> credentials = new ArrayList<>();
        addApprovals(approvers, credentials);
        List<Environment> futures = new ArrayList<>();
        for (JsonNode user : otherUsers.get()) {
            approvers.add(PolicyValues.user(user));
            credentials.addAll(PolicyValues.allCredentials(user));
            futures.add(environment(List.copyOf(approvers), List.copyOf(credentials)));
        }
        return futures;
    }

    /** The approvals that count, with the credential that stamped each (if its user still has it). */
    private void addApprovals(List<Value> approvers, List<Value> credentials) {
        for (Vote approval : request.approvals()) {
            approvers.add(PolicyValues.user(approval.user()));
            PolicyValues.credential(approval.user(), approval.publicKey(), approval.scheme())
                    .ifPresent(credentials::add);
        }
    }

    private Environment environment(List<Value> approvers, List<Value> credentials) {
        Map<String, Supplier<Value>> keywords = Map.of(
                "approvers", () -> Value.list(approvers),
                "credentials", () -> Value.list(credentials),
                "time", () -> Value.struct(Map.of("now", Value.of(request.now()))),
                "activity", this::activity);
        Map<String, Optional<Value>> computed = new HashMap<>();
        Function<String, Optional<Value>> compute = keyword -> {
            Supplier<Value> own = keywords.get(keyword);
            return own != null
                    ? Optional.of(own.get())
                    : Optional.ofNullable(facts.get().keywords().get(keyword));
        };
        return keyword -> computed.computeIfAbsent(keyword, compute);
    }

    private Value activity() {
        return Value.struct(Map.of(
                "type",
                Value.of(request.type().wireName()),
                "kind",
                Value.of(request.kind()),
                "resource",
                Value.of(request.resource().wireName()),
                "action",
                Value.of(request.action().wireName()),
                "params",
                Value.struct(facts.get().params())));
    }

    private static <T> Supplier<T> memoized(Supplier<T> source) {
        return new Supplier<>() {
            private T value;

            @Override
            public T get() {
                if (value == null) {
                    value = source.get();
                }
                return value;
            }
        };
    }
}
