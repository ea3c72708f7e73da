package dev.keyhaven.server.policy;

import dev.keyhaven.server.api.ApiException;
import dev.keyhaven.server.api.Caller;
import dev.keyhaven.server.api.Params;
import dev.keyhaven.server.api.WireTime;
import dev.keyhaven.server.tx.Transactor;
import java.util.Map;
import java.util.Optional;

/** The read side of policies: get_policy and list_policies (oldest first). */
public final class PolicyQueries {
    private final Transactor transactor;
    private final PolicyRepository policies;

    public PolicyQueries(Transactor transactor, PolicyRepository policies) {
        this.transactor = transactor;
        this.policies = policies;
    }

    /** {@code v1Policy}: the fields of seed §2.4, plus {@code time} when the policy has one. */
    public record WirePolicy(
            String policyId,
            String policyName,
            String effect,
            WireTime createdAt,
            WireTime updatedAt,
            String notes,
            String consensus,
            String condition,
            Optional<String> time) {

        static WirePolicy of(Policy p) {
            return new WirePolicy(
                    p.id(),
                    p.name(),
                    p.effect().wireName(),
                    WireTime.of(p.createdAt()),
                    WireTime.of(p.updatedAt()),
                    p.notes(),
                    p.consensus(),
                    p.condition(),
                    p.time());
        }
    }

    /** {@code list_policies {organizationId}} → {@code {policies}}. */
    public Map<String, Object> listPolicies(Caller caller, Params body) {
        return Map.of(
                "policies",
                transactor.read(tx -> policies.list(tx, caller.organizationId())).stream()
                        .map(WirePolicy::of)
                        .toList());
    }

    /** {@code get_policy {organizationId, policyId}} → {@code {policy}}. */
    public Map<String, Object> getPolicy(Caller caller, Params body) {
        String policyId = body.requiredString("policyId");
        Policy policy = transactor
                .read(tx -> policies.find(tx, caller.organizationId(), policyId))
                .orElseThrow(() -> ApiException.notFound("no policy found with id " + policyId));
        return Map.of("policy", WirePolicy.of(policy));
    }
}
