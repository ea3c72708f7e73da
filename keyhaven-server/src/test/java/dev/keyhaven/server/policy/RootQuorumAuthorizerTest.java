package dev.keyhaven.server.policy;

import static org.assertj.core.api.Assertions.assertThat;

import dev.keyhaven.server.activity.ActivityAction;
import dev.keyhaven.server.activity.ActivityResource;
import dev.keyhaven.server.activity.ActivityType;
import dev.keyhaven.server.activity.AuthorizationRequest;
import dev.keyhaven.server.activity.Decision;
import dev.keyhaven.server.organization.Organization;
import dev.keyhaven.server.organization.OrganizationRepository;
import dev.keyhaven.server.organization.RootQuorum;
import dev.keyhaven.server.state.StateReads;
import dev.keyhaven.server.tx.Tx;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class RootQuorumAuthorizerTest {
    private static final Tx NO_TX = new Tx() { };
    private static final StateReads ORG = StateReads.in(NO_TX, "o");

    /** One organization whose quorum is {@code root1}, {@code root2} with threshold {@code threshold}. */
    private static RootQuorumAuthorizer authorizer(int threshold) {
        Organization org = new Organization("o", "org", Optional.empty(),
                new RootQuorum(threshold, List.of("root1", "root2")), Instant.EPOCH, Instant.EPOCH);
        return new RootQuorumAuthorizer(new OrganizationRepository() {
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
        });
    }

    private static AuthorizationRequest request(ActivityType type, List<String> approvers, String credentialOwner) {
        return new AuthorizationRequest("o", type, ActivityResource.USER, ActivityAction.CREATE, approvers,
                Optional.ofNullable(credentialOwner));
    }

    @Test
    void enoughRootApprovalsAllowAnything() {
        assertThat(authorizer(1).decide(ORG, request(ActivityType.CREATE_USERS_V4, List.of("root2"), null)))
                .isInstanceOf(Decision.Allow.class);
        assertThat(authorizer(2).decide(ORG, request(ActivityType.UPDATE_ROOT_QUORUM, List.of("root1", "root2"),
                null))).isInstanceOf(Decision.Allow.class);
    }

    @Test
    void aRootUserBelowTheThresholdWaitsForConsensus() {
        assertThat(authorizer(2).decide(ORG, request(ActivityType.CREATE_USERS_V4, List.of("root1"), null)))
                .isInstanceOf(Decision.NeedsConsensus.class);
    }

    @Test
    void usersManageTheirOwnCredentialsWithoutTheQuorum() {
        assertThat(authorizer(2).decide(ORG, request(ActivityType.CREATE_API_KEYS_V2, List.of("alice"), "alice")))
                .isInstanceOf(Decision.Allow.class);
        assertThat(authorizer(1).decide(ORG, request(ActivityType.CREATE_API_KEYS_V2, List.of("alice"), "bob")))
                .isInstanceOf(Decision.Deny.class);
    }

    @Test
    void rootQuorumOnlyActivitiesIgnoreTheOwnCredentialRule() {
        assertThat(authorizer(1).decide(ORG, request(ActivityType.UPDATE_ROOT_QUORUM, List.of("alice"), "alice")))
                .isInstanceOf(Decision.Deny.class);
    }

    @Test
    void everyoneElseIsDeniedImplicitly() {
        Decision decision = authorizer(1).decide(ORG, request(ActivityType.CREATE_USERS_V4, List.of("alice"), null));
        assertThat(decision).isInstanceOfSatisfying(Decision.Deny.class,
                d -> assertThat(d.reason()).contains("implicit deny").contains("ACTIVITY_TYPE_CREATE_USERS_V4"));
    }
}
