package dev.keyhaven.server.organization;

import dev.keyhaven.server.api.Ids;
import dev.keyhaven.server.api.WireTime;
import dev.keyhaven.server.tx.Transactor;
import dev.keyhaven.server.user.ApiKey;
import dev.keyhaven.server.user.NewApiKey;
import dev.keyhaven.server.user.NewUser;
import dev.keyhaven.server.user.UserCreator;
import dev.keyhaven.server.user.UserRepository;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * Initialises an empty store: the root organization, its first user (the whole root quorum, threshold 1) and that
 * user's API key. This is the operator's act on the command line, before any credential exists to sign an
 * activity, so it is not itself an activity.
 */
public final class RootOrganizationSetup {
    private final Transactor transactor;
    private final OrganizationRepository organizations;
    private final UserRepository users;
    private final UserCreator creator;
    private final Clock clock;
    private final Ids ids;

    public RootOrganizationSetup(
            Transactor transactor,
            OrganizationRepository organizations,
            UserRepository users,
            UserCreator creator,
            Clock clock,
            Ids ids) {
        this.transactor = transactor;
        this.organizations = organizations;
        this.users = users;
        this.creator = creator;
        this.clock = clock;
        this.ids = ids;
    }

    /** What initialisation created. */
    public record Created(String organizationId, String userId, String apiKeyId) {}

    /** Thrown when the store already has its root organization. */
    public static final class AlreadyInitialized extends RuntimeException {
        private static final long serialVersionUID = 1L;

        AlreadyInitialized(String organizationId) {
            super("the store is already initialised (root organization " + organizationId + ")");
        }
    }

    /** The root organization, if the store is initialised. */
    public Optional<Organization> root() {
        return transactor.read(organizations::findRoot);
    }

    public Created initialize(String organizationName, String userName, NewApiKey apiKey) {
        return transactor.write(tx -> {
            Optional<Organization> existing = organizations.findRoot(tx);
            if (existing.isPresent()) {
                throw new AlreadyInitialized(existing.get().id());
            }
            Instant now = WireTime.truncate(clock.instant());
            String organizationId = ids.next();
            organizations.insert(
                    tx,
                    new Organization(
                            organizationId,
                            organizationName,
                            Optional.empty(),
                            new RootQuorum(1, List.of()),
                            now,
                            now));
            NewUser root =
                    new NewUser(userName, Optional.empty(), Optional.empty(), List.of(apiKey), List.of(), List.of());
            String userId =
                    creator.create(tx, organizationId, List.of(root), now, ids).getFirst();
            organizations.setRootQuorum(tx, organizationId, new RootQuorum(1, List.of(userId)), now);
            OrganizationFeatures.startWith(organizations, tx, organizationId, java.util.Set.of(), now);
            ApiKey key = users.apiKeys(tx, organizationId, Optional.of(userId)).getFirst();
            return new Created(organizationId, userId, key.id());
        });
    }
}
