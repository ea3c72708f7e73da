package dev.keyhaven.server.session;

import dev.keyhaven.server.activity.ActivityHandler;
import dev.keyhaven.server.custody.JwtIssuer;
import dev.keyhaven.server.custody.KeyTransfer;
import dev.keyhaven.server.organization.OrganizationRepository;
import dev.keyhaven.server.tx.Transactor;
import dev.keyhaven.server.user.Credentials;
import dev.keyhaven.server.user.UserRepository;
import java.time.Clock;
import java.util.List;

/**
 * Sessions assembled: stamp login and the read-write and read-only sessions, signed by the session signer.
 * {@link #sessions()} also serves OTP and OAuth logins.
 */
public final class SessionFeature {
    private final Sessions sessions;
    private final ReadOnlySessions readOnlySessions;
    private final BundleKeys bundleKeys;
    private final List<ActivityHandler<?>> handlers;

    public SessionFeature(
            Transactor transactor,
            UserRepository users,
            OrganizationRepository organizations,
            Credentials credentials,
            JwtIssuer sessionSigner,
            KeyTransfer transfer,
            Clock clock) {
        this.sessions = new Sessions(users, credentials, sessionSigner);
        this.bundleKeys = new BundleKeys(sessions, transfer);
        this.readOnlySessions = new ReadOnlySessions(transactor, users, organizations, sessionSigner, clock);
        this.handlers = List.of(
                new StampLoginHandler(sessions),
                new CreateReadWriteSessionHandler(sessions, transfer, organizations, users),
                new CreateReadOnlySessionHandler(readOnlySessions, organizations));
    }

    public List<ActivityHandler<?>> handlers() {
        return handlers;
    }

    public Sessions sessions() {
        return sessions;
    }

    /** Expiring keys delivered as credential bundles, for the older email, OTP and OAuth sign-ins. */
    public BundleKeys bundleKeys() {
        return bundleKeys;
    }

    public ReadOnlySessions readOnlySessions() {
        return readOnlySessions;
    }
}
