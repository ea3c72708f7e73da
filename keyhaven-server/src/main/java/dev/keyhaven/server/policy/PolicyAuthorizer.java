package dev.keyhaven.server.policy;

import dev.keyhaven.policy.engine.CompiledPolicy;
import dev.keyhaven.policy.engine.Outcome;
import dev.keyhaven.policy.engine.PolicyEngine;
import dev.keyhaven.policy.engine.PolicyOutcome;
import dev.keyhaven.policy.engine.PolicyVerdict;
import dev.keyhaven.server.activity.ActivityType;
import dev.keyhaven.server.activity.AuthorizationRequest;
import dev.keyhaven.server.activity.Authorizer;
import dev.keyhaven.server.activity.Decision;
import dev.keyhaven.server.activity.VoterDirectory;
import dev.keyhaven.server.organization.Organization;
import dev.keyhaven.server.organization.OrganizationRepository;
import dev.keyhaven.server.organization.RootQuorum;
import dev.keyhaven.server.state.StateReads;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import tools.jackson.databind.JsonNode;

/**
 * Authorizes activities in the real service's order (turnkey-api.md §4):
 * <ol>
 * <li>enough root-quorum approvals allow anything, bypassing every policy;</li>
 * <li>root-quorum-only activities (update_root_quorum, organization features and name) need the quorum: a root
 *     user's approval waits for the rest, anyone else is denied;</li>
 * <li>the organization's policies ({@link PolicyEngine}): an applicable DENY whose consensus holds denies, and so does
 *     a DENY that cannot be evaluated (it fails closed); else a satisfied ALLOW allows, else an ALLOW that more
 *     approvals could satisfy waits for consensus;</li>
 * <li>implicit rules: a user may manage their own credentials; a root user's activity waits for the rest of the
 *     quorum;</li>
 * <li>anything else is denied implicitly.</li>
 * </ol>
 * The organization's policies are a lookup of its state, compiled once per state version (policy activities change
 * the organization, so a change is seen by the next activity); expressions are compiled once per text.
 */
public final class PolicyAuthorizer implements Authorizer {
    /** Activities that only the root quorum may perform, whatever the policies say. */
    static final Set<ActivityType> ROOT_QUORUM_ONLY = EnumSet.of(
            ActivityType.UPDATE_ROOT_QUORUM,
            ActivityType.SET_ORGANIZATION_FEATURE,
            ActivityType.REMOVE_ORGANIZATION_FEATURE,
            ActivityType.UPDATE_ORGANIZATION_NAME);

    private final OrganizationRepository organizations;
    private final PolicyRepository policies;
    private final VoterDirectory voters;
    private final PolicyCompiler compiler = new PolicyCompiler();

    /** The lookup of the organization with its root quorum. */
    private record OrganizationLookup() {}

    /** The lookup of the organization's policies, compiled. */
    private record PoliciesLookup() {}

    /**
     * The organization's policies in evaluation order; one that no longer compiles is an error outcome (and, as a
     * DENY, denies: what cannot be evaluated fails closed).
     */
    private record Compiled(List<CompiledPolicy> policies, List<Policy> broken) {}

    public PolicyAuthorizer(OrganizationRepository organizations, PolicyRepository policies, VoterDirectory voters) {
        this.organizations = organizations;
        this.policies = policies;
        this.voters = voters;
    }

    @Override
    public Decision decide(StateReads organization, AuthorizationRequest request) {
        return decide(
                organization,
                request,
                () -> organization.get(
                        new PoliciesLookup(),
                        tx -> compile(compiler, policies.list(tx, organization.organizationId()))));
    }

    /**
     * An authorizer that decides exactly as this one does, but on {@code draft} (in evaluation order) instead of the
     * organization's stored policies: what a dry run of a changed policy set asks. Its expressions are compiled
     * apart, so that drafts never enter the cache of the stored policies' expressions.
     */
    Authorizer deciding(List<Policy> draft) {
        List<Policy> fixed = List.copyOf(draft);
        return (organization, request) -> decide(organization, request, () -> compile(new PolicyCompiler(), fixed));
    }

    /** Turnkey's order (see the class comment), with {@code policySet} read only when the policies' turn comes. */
    private Decision decide(StateReads organization, AuthorizationRequest request, Supplier<Compiled> policySet) {
        Organization org = organization.get(
                new OrganizationLookup(),
                tx -> organizations.find(tx, organization.organizationId()).orElseThrow());
        RootQuorum quorum = org.rootQuorum();
        List<String> approvers = request.approverUserIds();
        long rootApprovals =
                approvers.stream().filter(quorum.userIds()::contains).count();
        if (rootApprovals >= quorum.threshold()) {
            return new Decision.Allow("root quorum approved (" + rootApprovals + " of " + quorum.threshold() + ")");
        }
        boolean rootOnly = ROOT_QUORUM_ONLY.contains(request.type());
        if (rootOnly) {
            return rootApprovals > 0
                    ? waitForRootQuorum(quorum, rootApprovals, List.of())
                    : implicitDeny(request, true, List.of());
        }
        Compiled compiled = policySet.get();
        List<PolicyOutcome> outcomes = new ArrayList<>();
        if (!compiled.policies().isEmpty() || !compiled.broken().isEmpty()) {
            PolicyVerdict verdict = PolicyEngine.evaluate(
                    compiled.policies(), new PolicyBallot(request, () -> otherUsers(organization, request)));
            outcomes.addAll(verdict.outcomes());
            for (Policy policy : compiled.broken()) {
                outcomes.add(new PolicyOutcome(
                        policy.id(),
                        Outcome.ERROR,
                        Optional.of("the stored policy no longer compiles"),
                        policy.effect() == PolicyEffect.DENY));
            }
            boolean failedClosed = outcomes.stream().anyMatch(PolicyOutcome::failsClosed);
            switch (failedClosed ? PolicyVerdict.Verdict.DENY : verdict.verdict()) {
                case DENY -> {
                    return new Decision.Deny(denial(outcomes), true, outcomes);
                }
                case ALLOW -> {
                    return new Decision.Allow("allowed by policy " + with(outcomes, Outcome.ALLOW), outcomes);
                }
                case NEEDS_CONSENSUS -> {
                    return new Decision.NeedsConsensus(
                            "policy " + with(outcomes, Outcome.REQUIRES_CONSENSUS) + " needs more approvals", outcomes);
                }
                case NONE -> {
                    // the implicit rules decide
                }
            }
        }
        if (request.credentialOwner().isPresent()
                && approvers.contains(request.credentialOwner().get())) {
            return new Decision.Allow("users may manage their own credentials", outcomes);
        }
        if (rootApprovals > 0) {
            return waitForRootQuorum(quorum, rootApprovals, outcomes);
        }
        return implicitDeny(request, false, outcomes);
    }

    /** Names the DENY policies that denied, and those that denied because they could not be evaluated, and why. */
    private static String denial(List<PolicyOutcome> outcomes) {
        List<String> reasons = new ArrayList<>();
        String explicit = with(outcomes, Outcome.DENY_EXPLICIT);
        if (!explicit.isEmpty()) {
            reasons.add("request denied by policy " + explicit);
        }
        outcomes.stream()
                .filter(PolicyOutcome::failsClosed)
                .forEach(o -> reasons.add("DENY policy " + o.policyId()
                        + " could not be evaluated (" + o.error().orElse("") + "), and a DENY that cannot be evaluated "
                        + "denies"));
        return String.join("; ", reasons);
    }

    private static Decision waitForRootQuorum(RootQuorum quorum, long rootApprovals, List<PolicyOutcome> outcomes) {
        return new Decision.NeedsConsensus(
                "root quorum needs " + quorum.threshold() + " approvals, has " + rootApprovals, outcomes);
    }

    private static Decision implicitDeny(AuthorizationRequest request, boolean rootOnly, List<PolicyOutcome> outcomes) {
        return new Decision.Deny(
                "request not authorized: no policy allows " + request.type().wireName()
                        + " for this user (implicit deny); only the root quorum may act on "
                        + request.resource().wireName()
                        + (rootOnly ? "" : ", and users may manage only their own credentials"),
                false,
                outcomes);
    }

    private static Compiled compile(PolicyCompiler compiler, List<Policy> stored) {
        List<CompiledPolicy> ready = new ArrayList<>(stored.size());
        List<Policy> broken = new ArrayList<>();
        for (Policy policy : stored) {
            compiler.compile(policy).ifPresentOrElse(ready::add, () -> broken.add(policy));
        }
        return new Compiled(List.copyOf(ready), List.copyOf(broken));
    }

    /** The organization's users who have not voted, as voters' records, for the hypothetical approvals. */
    private List<JsonNode> otherUsers(StateReads organization, AuthorizationRequest request) {
        return voters.userIds(organization).stream()
                .filter(id -> !request.voterIds().contains(id))
                .map(id -> voters.userSnapshot(organization, id))
                .toList();
    }

    private static String with(List<PolicyOutcome> outcomes, Outcome outcome) {
        return outcomes.stream()
                .filter(o -> o.outcome() == outcome)
                .map(PolicyOutcome::policyId)
                .collect(Collectors.joining(", "));
    }
}
