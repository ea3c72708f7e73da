package dev.keyhaven.server.policy;

import static org.assertj.core.api.Assertions.assertThat;

import dev.keyhaven.policy.Value;
import dev.keyhaven.policy.engine.Outcome;
import dev.keyhaven.policy.engine.PolicyOutcome;
import dev.keyhaven.server.activity.ActivityAction;
import dev.keyhaven.server.activity.ActivityResource;
import dev.keyhaven.server.activity.ActivityType;
import dev.keyhaven.server.activity.AuthorizationRequest;
import dev.keyhaven.server.activity.Decision;
import dev.keyhaven.server.activity.PolicyFacts;
import dev.keyhaven.server.activity.Vote;
import dev.keyhaven.server.activity.VoteSelection;
import dev.keyhaven.server.activity.VoterDirectory;
import dev.keyhaven.server.api.JsonMappers;
import dev.keyhaven.server.api.Pagination;
import dev.keyhaven.server.organization.FeatureName;
import dev.keyhaven.server.organization.Organization;
import dev.keyhaven.server.organization.OrganizationRepository;
import dev.keyhaven.server.organization.RootQuorum;
import dev.keyhaven.server.organization.SubOrganizationFilter;
import dev.keyhaven.server.state.StateReads;
import dev.keyhaven.server.tx.Tx;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * The evaluation order of turnkey-api.md §4 over fakes: an organization whose root quorum is {@code root1},
 * {@code root2}, with users {@code alice} (tag {@code ops}), {@code bob} and {@code carol} as well.
 */
class PolicyAuthorizerTest {
    private static final Tx NO_TX = new Tx() {};
    private static final StateReads ORG = StateReads.in(NO_TX, "o");
    private static final ObjectMapper JSON = JsonMappers.strict();
    private static final Instant NOW = Instant.parse("2026-11-21T12:00:00Z");
    private static final List<String> USERS = List.of("root1", "root2", "alice", "bob", "carol");

    private final List<Policy> stored = new ArrayList<>();

    private PolicyAuthorizer authorizer(int threshold) {
        Organization org = new Organization(
                "o",
                "org",
                Optional.empty(),
                new RootQuorum(threshold, List.of("root1", "root2")),
                Instant.EPOCH,
                Instant.EPOCH);
        return new PolicyAuthorizer(new OneOrganization(org), new StoredPolicies(), new VoterDirectory() {
            @Override
            public JsonNode userSnapshot(StateReads organization, String userId) {
                return user(userId);
            }

            @Override
            public List<String> userIds(StateReads organization) {
                return USERS;
            }
        });
    }

    private static JsonNode user(String id) {
        ObjectNode user = JSON.createObjectNode().put("userId", id).put("userName", "name of " + id);
        user.putArray("userTags").add(id.equals("alice") ? "ops" : "none");
        user.putArray("apiKeys")
                .addObject()
                .put("apiKeyId", "key-" + id)
                .putObject("credential")
                .put("publicKey", "pk-" + id)
                .put("type", "CREDENTIAL_TYPE_API_KEY_P256");
        user.putArray("authenticators");
        return user;
    }

    private void policy(String id, PolicyEffect effect, String condition, String consensus) {
        stored.add(new Policy(
                id,
                "o",
                "policy " + id,
                effect,
                condition,
                consensus,
                Optional.empty(),
                "",
                Instant.EPOCH,
                Instant.EPOCH));
    }

    private static AuthorizationRequest request(
            ActivityType type, ActivityAction action, List<String> approvers, String credentialOwner) {
        List<Vote> votes = approvers.stream()
                .map(id -> new Vote(
                        "v-" + id,
                        "a",
                        id,
                        user(id),
                        VoteSelection.APPROVED,
                        "{}",
                        "pk-" + id,
                        "sig",
                        "SIGNATURE_SCHEME_TK_API_P256",
                        NOW,
                        Optional.empty()))
                .toList();
        return new AuthorizationRequest(
                "o",
                type,
                ActivityResource.PRIVATE_KEY,
                action,
                votes,
                approvers,
                Optional.ofNullable(credentialOwner),
                () -> PolicyFacts.params(Map.of("hash_function", Value.of("HASH_FUNCTION_KECCAK256"))),
                NOW);
    }

    private static AuthorizationRequest signing(String... approvers) {
        return request(ActivityType.SIGN_RAW_PAYLOAD_V2, ActivityAction.SIGN, List.of(approvers), null);
    }

    @Test
    void enoughRootApprovalsAllowAnythingAndBypassEveryPolicy() {
        policy("deny-all", PolicyEffect.DENY, "", "");
        Decision decision = authorizer(1).decide(ORG, signing("root2"));
        assertThat(decision).isInstanceOf(Decision.Allow.class);
        assertThat(decision.policies()).isEmpty();
        assertThat(authorizer(2)
                        .decide(
                                ORG,
                                request(
                                        ActivityType.UPDATE_ROOT_QUORUM,
                                        ActivityAction.UPDATE,
                                        List.of("root1", "root2"),
                                        null)))
                .isInstanceOf(Decision.Allow.class);
    }

    @Test
    void aRootUserBelowTheThresholdWaitsForConsensus() {
        Decision decision = authorizer(2).decide(ORG, signing("root1"));
        assertThat(decision).isInstanceOf(Decision.NeedsConsensus.class);
        assertThat(decision.overall()).isEqualTo(Outcome.REQUIRES_CONSENSUS);
    }

    @Test
    void aPolicyMayLetOneRootUserActAloneBelowTheThreshold() {
        policy("root1-signs", PolicyEffect.ALLOW, "activity.action == 'SIGN'", "approvers.any(u, u.id == 'root1')");
        assertThat(authorizer(2).decide(ORG, signing("root1"))).isInstanceOf(Decision.Allow.class);
    }

    @Test
    void usersManageTheirOwnCredentialsWithoutTheQuorum() {
        assertThat(authorizer(2)
                        .decide(
                                ORG,
                                request(
                                        ActivityType.CREATE_API_KEYS_V2,
                                        ActivityAction.CREATE,
                                        List.of("alice"),
                                        "alice")))
                .isInstanceOf(Decision.Allow.class);
        assertThat(authorizer(1)
                        .decide(
                                ORG,
                                request(
                                        ActivityType.CREATE_API_KEYS_V2,
                                        ActivityAction.CREATE,
                                        List.of("alice"),
                                        "bob")))
                .isInstanceOf(Decision.Deny.class);
    }

    @Test
    void anExplicitDenyOverridesTheOwnCredentialRule() {
        policy("no-keys", PolicyEffect.DENY, "activity.type == 'ACTIVITY_TYPE_CREATE_API_KEYS_V2'", "");
        Decision decision = authorizer(2)
                .decide(
                        ORG,
                        request(ActivityType.CREATE_API_KEYS_V2, ActivityAction.CREATE, List.of("alice"), "alice"));
        assertThat(decision)
                .isInstanceOfSatisfying(
                        Decision.Deny.class, d -> assertThat(d.reason()).isEqualTo("request denied by policy no-keys"));
        assertThat(decision.overall()).isEqualTo(Outcome.DENY_EXPLICIT);
    }

    @Test
    void rootQuorumOnlyActivitiesIgnorePoliciesAndTheOwnCredentialRule() {
        policy("allow-all", PolicyEffect.ALLOW, "", "");
        assertThat(authorizer(1)
                        .decide(
                                ORG,
                                request(
                                        ActivityType.UPDATE_ROOT_QUORUM,
                                        ActivityAction.UPDATE,
                                        List.of("alice"),
                                        "alice")))
                .isInstanceOf(Decision.Deny.class);
        assertThat(authorizer(2)
                        .decide(
                                ORG,
                                request(
                                        ActivityType.UPDATE_ROOT_QUORUM,
                                        ActivityAction.UPDATE,
                                        List.of("root1"),
                                        null)))
                .isInstanceOf(Decision.NeedsConsensus.class);
    }

    @Test
    void everyoneElseIsDeniedImplicitly() {
        policy("other", PolicyEffect.ALLOW, "activity.action == 'DELETE'", "");
        Decision decision = authorizer(1).decide(ORG, signing("alice"));
        assertThat(decision)
                .isInstanceOfSatisfying(
                        Decision.Deny.class,
                        d -> assertThat(d.reason())
                                .contains("implicit deny")
                                .contains("ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2"));
        assertThat(decision.overall()).isEqualTo(Outcome.DENY_IMPLICIT);
        assertThat(decision.policies()).extracting(PolicyOutcome::outcome).containsExactly(Outcome.DENY_IMPLICIT);
    }

    @Test
    void anAllowPolicyLetsAUserSignAndADenyOverridesIt() {
        policy("ops-sign", PolicyEffect.ALLOW, "activity.action == 'SIGN'", "approvers.any(u, u.tags.contains('ops'))");
        assertThat(authorizer(1).decide(ORG, signing("alice"))).isInstanceOf(Decision.Allow.class);
        // bob is not in ops, but alice's approval would satisfy the policy
        assertThat(authorizer(1).decide(ORG, signing("bob"))).isInstanceOf(Decision.NeedsConsensus.class);

        policy("no-keccak", PolicyEffect.DENY, "activity.params.hash_function == 'HASH_FUNCTION_KECCAK256'", "");
        Decision denied = authorizer(1).decide(ORG, signing("alice"));
        assertThat(denied).isInstanceOf(Decision.Deny.class);
        assertThat(denied.policies())
                .extracting(PolicyOutcome::outcome)
                .containsExactly(Outcome.ALLOW, Outcome.DENY_EXPLICIT);
    }

    @Test
    void aTwoApproverPolicyNeedsConsensusUntilTheSecondApproval() {
        policy(
                "two",
                PolicyEffect.ALLOW,
                "activity.action == 'SIGN'",
                "approvers.filter(u, u.id == 'alice' || u.id == 'bob').count() == 2");
        assertThat(authorizer(1).decide(ORG, signing("alice"))).isInstanceOf(Decision.NeedsConsensus.class);
        assertThat(authorizer(1).decide(ORG, signing("alice", "bob"))).isInstanceOf(Decision.Allow.class);
        // carol's approval does not count towards it, but alice's and bob's still could
        assertThat(authorizer(1)
                        .decide(
                                ORG,
                                request(ActivityType.SIGN_RAW_PAYLOAD_V2, ActivityAction.SIGN, List.of("carol"), null)))
                .isInstanceOf(Decision.NeedsConsensus.class);
    }

    @Test
    void credentialsAreTheOnesThatStampedTheApprovals() {
        policy(
                "by-key",
                PolicyEffect.ALLOW,
                "",
                "credentials.any(c, c.public_key == 'pk-bob' && c.id == 'key-bob'"
                        + " && c.user_id == 'bob' && c.type == 'CREDENTIAL_TYPE_API_KEY_P256')");
        assertThat(authorizer(1).decide(ORG, signing("bob"))).isInstanceOf(Decision.Allow.class);
        assertThat(authorizer(1).decide(ORG, signing("carol"))).isInstanceOf(Decision.NeedsConsensus.class);
    }

    @Test
    void approversCarryIdTagsEmailAndAlias() {
        policy(
                "shape",
                PolicyEffect.ALLOW,
                "",
                "approvers.all(u, u.alias == 'name of alice' && u.email == ''"
                        + " && u.tags == ['ops'] && u.id == 'alice')");
        assertThat(authorizer(1).decide(ORG, signing("alice"))).isInstanceOf(Decision.Allow.class);
    }

    @Test
    void activityKeywordsDescribeTheActivity() {
        policy(
                "shape",
                PolicyEffect.ALLOW,
                "activity.type == 'ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2'"
                        + " && activity.kind == 'SIGN_RAW_PAYLOAD' && activity.resource == 'PRIVATE_KEY'"
                        + " && activity.action == 'SIGN' && time.now == Timestamp('2026-11-21T12:00:00Z')",
                "");
        assertThat(authorizer(1).decide(ORG, signing("alice"))).isInstanceOf(Decision.Allow.class);
    }

    @Test
    void aPolicyReadingAnUnpopulatedKeywordIsAnErrorAndTakesNoPart() {
        policy("wallet-deny", PolicyEffect.DENY, "wallet.id == 'w'", "");
        Decision decision = authorizer(1).decide(ORG, signing("alice"));
        assertThat(decision).isInstanceOf(Decision.Deny.class);
        assertThat(decision.overall()).isEqualTo(Outcome.DENY_IMPLICIT);
        assertThat(decision.policies()).singleElement().satisfies(o -> {
            assertThat(o.outcome()).isEqualTo(Outcome.ERROR);
            assertThat(o.error()).hasValueSatisfying(e -> assertThat(e).contains("wallet"));
        });
    }

    /**
     * A dry run's authorizer decides as the organization's does, on the policies it is given instead of the stored
     * ones: the same set reaches the same decision with the same outcomes; a changed set reaches its own; and the
     * root quorum's bypass still comes first.
     */
    @Test
    void anAuthorizerOverADraftSetDecidesAsTheStoredOneDoes() {
        policy("two", PolicyEffect.ALLOW, "activity.action == 'SIGN'", "approvers.count() >= 2");
        PolicyAuthorizer authorizer = authorizer(1);
        Decision recorded = authorizer.decide(ORG, signing("alice"));
        Decision sameSet = authorizer.deciding(List.copyOf(stored)).decide(ORG, signing("alice"));
        assertThat(List.of(sameSet.getClass(), sameSet.reason(), sameSet.policies()))
                .containsExactly(recorded.getClass(), recorded.reason(), recorded.policies());
        assertThat(recorded.policies())
                .containsExactly(new PolicyOutcome("two", Outcome.REQUIRES_CONSENSUS, Optional.empty()));

        List<Policy> withDeny = new ArrayList<>(stored);
        withDeny.add(new Policy(
                "draft",
                "o",
                "no signing",
                PolicyEffect.DENY,
                "activity.action == 'SIGN'",
                "",
                Optional.empty(),
                "",
                Instant.EPOCH,
                Instant.EPOCH));
        Decision denied = authorizer.deciding(withDeny).decide(ORG, signing("alice"));
        assertThat(denied.overall()).isEqualTo(Outcome.DENY_EXPLICIT);
        assertThat(denied.reason()).isEqualTo("request denied by policy draft");
        assertThat(denied.policies())
                .containsExactly(
                        new PolicyOutcome("two", Outcome.REQUIRES_CONSENSUS, Optional.empty()),
                        new PolicyOutcome("draft", Outcome.DENY_EXPLICIT, Optional.empty()));
        assertThat(authorizer.deciding(withDeny).decide(ORG, signing("root1")).reason())
                .isEqualTo("root quorum approved (1 of 1)");
        assertThat(authorizer.deciding(List.of()).decide(ORG, signing("alice")).overall())
                .isEqualTo(Outcome.DENY_IMPLICIT);
        assertThat(stored).as("the stored policies are untouched").hasSize(1);
    }

    /** The fake store of {@link #stored}. */
    private final class StoredPolicies implements PolicyRepository {
        @Override
        public void insert(Tx tx, Policy policy) {
            throw new AssertionError("read-only fake");
        }

        @Override
        public void update(Tx tx, Policy policy) {
            throw new AssertionError("read-only fake");
        }

        @Override
        public int delete(Tx tx, String organizationId, Collection<String> policyIds) {
            throw new AssertionError("read-only fake");
        }

        @Override
        public Optional<Policy> find(Tx tx, String organizationId, String policyId) {
            return stored.stream().filter(p -> p.id().equals(policyId)).findFirst();
        }

        @Override
        public boolean nameTaken(Tx tx, String organizationId, String name) {
            return stored.stream().anyMatch(p -> p.name().equals(name));
        }

        @Override
        public List<Policy> list(Tx tx, String organizationId) {
            return List.copyOf(stored);
        }

        @Override
        public int count(Tx tx, String organizationId) {
            return stored.size();
        }

        @Override
        public List<String> missing(Tx tx, String organizationId, Collection<String> policyIds) {
            return List.of();
        }
    }

    /** One organization, read-only. */
    private record OneOrganization(Organization org) implements OrganizationRepository {
        @Override
        public void insert(Tx tx, Organization organization) {
            throw new AssertionError("read-only fake");
        }

        @Override
        public Optional<Organization> find(Tx tx, String organizationId) {
            return Optional.of(org);
        }

        @Override
        public boolean anyExists(Tx tx) {
            return true;
        }

        @Override
        public Optional<Organization> findRoot(Tx tx) {
            return Optional.of(org);
        }

        @Override
        public Optional<MemberNames> memberNames(Tx tx, String organizationId, String userId) {
            return Optional.empty();
        }

        @Override
        public void rename(Tx tx, String organizationId, String name, Instant updatedAt) {
            throw new AssertionError("read-only fake");
        }

        @Override
        public void setRootQuorum(Tx tx, String organizationId, RootQuorum quorum, Instant updatedAt) {
            throw new AssertionError("read-only fake");
        }

        @Override
        public List<FeatureSetting> features(Tx tx, String organizationId) {
            throw new AssertionError("read-only fake: the authorizer never calls this");
        }

        @Override
        public void setFeature(Tx tx, String organizationId, FeatureName name, String value, Instant at) {
            throw new AssertionError("read-only fake: the authorizer never calls this");
        }

        @Override
        public void removeFeature(Tx tx, String organizationId, FeatureName name) {
            throw new AssertionError("read-only fake: the authorizer never calls this");
        }

        @Override
        public List<String> subOrganizationIds(Tx tx, String parentId, SubOrganizationFilter filter, Pagination page) {
            throw new AssertionError("read-only fake: the authorizer never calls this");
        }

        @Override
        public boolean holdsUnexportedKeys(Tx tx, String organizationId) {
            throw new AssertionError("read-only fake: the authorizer never calls this");
        }

        @Override
        public void delete(Tx tx, String organizationId) {
            throw new AssertionError("read-only fake: the authorizer never calls this");
        }

        @Override
        public void markContactVerified(Tx tx, String userId, boolean email) {
            throw new AssertionError("read-only fake: the authorizer never calls this");
        }
    }
}
