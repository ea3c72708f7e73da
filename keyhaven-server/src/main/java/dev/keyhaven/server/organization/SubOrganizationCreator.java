package dev.keyhaven.server.organization;

import dev.keyhaven.server.api.ApiException;
import dev.keyhaven.server.api.Ids;
import dev.keyhaven.server.tx.Tx;
import dev.keyhaven.server.user.NewUser;
import dev.keyhaven.server.user.UserCreator;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Creates a sub-organization with its root users and quorum: {@code create_sub_organization}, and the auth proxy's
 * sign-up.
 */
public final class SubOrganizationCreator {
    private final OrganizationRepository organizations;
    private final UserCreator users;

    public SubOrganizationCreator(OrganizationRepository organizations, UserCreator users) {
        this.organizations = organizations;
        this.users = users;
    }

    /** A created sub-organization and its root users' ids, in order. */
    public record Created(String organizationId, List<String> rootUserIds) {}

    public Created create(
            Tx tx, String parentId, String name, List<NewUser> rootUsers, int threshold, Instant now, Ids ids) {
        return create(tx, parentId, name, rootUsers, threshold, Set.of(), now, ids);
    }

    /** As above, the sub-organization starting without the default features in {@code featuresOff}. */
    public Created create(
            Tx tx,
            String parentId,
            String name,
            List<NewUser> rootUsers,
            int threshold,
            Set<FeatureName> featuresOff,
            Instant now,
            Ids ids) {
        Organization parent = organizations.find(tx, parentId).orElseThrow();
        if (parent.isSubOrganization()) {
            throw ApiException.badRequest("a sub-organization cannot create sub-organizations");
        }
        String id = ids.next();
        organizations.insert(
                tx,
                new Organization(id, name, Optional.of(parent.id()), new RootQuorum(threshold, List.of()), now, now));
        List<String> rootUserIds = users.create(tx, id, rootUsers, now, ids);
        organizations.setRootQuorum(tx, id, new RootQuorum(threshold, rootUserIds), now);
        OrganizationFeatures.startWith(organizations, tx, id, featuresOff, now);
        return new Created(id, rootUserIds);
    }

    /**
     * Records that the user proved they receive their email ({@code email}) or phone number, as an OTP sign-up
     * does; {@code list_verified_suborgs} finds the sub-organization by it.
     */
    public void markContactVerified(Tx tx, String userId, boolean email) {
        organizations.markContactVerified(tx, userId, email);
    }
}
