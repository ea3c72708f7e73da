package dev.keyhaven.server.user;

import dev.keyhaven.server.activity.ActivityHandler;
import dev.keyhaven.server.oidc.OidcVerifier;
import dev.keyhaven.server.tx.Transactor;
import java.util.List;

/**
 * Users assembled: their credentials, OAuth providers and tags, the activities that change them and the queries that
 * read them. Other features build on {@link #creator()} (sub-organizations, the root user), {@link #credentials()}
 * (sessions, recovery) and {@link #oauthProviders()}.
 */
public final class UserFeature {
    private final Credentials credentials;
    private final OauthProviders oauthProviders;
    private final UserCreator creator;
    private final UserQueries queries;
    private final List<ActivityHandler<?>> handlers;
    private final List<ActivityHandler<?>> oauthProviderHandlers;

    public UserFeature(
            Transactor transactor,
            UserRepository users,
            OauthProviderRepository providers,
            UserLimits limits,
            AttestationVerifier attestations,
            OidcVerifier oidc) {
        this.credentials = new Credentials(users, limits);
        this.oauthProviders = new OauthProviders(users, providers);
        this.creator = new UserCreator(users, credentials, limits, oauthProviders);
        this.queries = new UserQueries(transactor, users, providers);
        UserUpdater updater = new UserUpdater(users);
        this.handlers = List.of(
                new CreateUsersHandler(creator, attestations, oidc),
                new CreateApiOnlyUsersHandler(creator),
                new DeleteUsersHandler(users),
                new CreateApiKeysHandler(users, credentials),
                new DeleteApiKeysHandler(users),
                new CreateAuthenticatorsHandler(users, credentials, attestations),
                new DeleteAuthenticatorsHandler(users),
                new UpdateUserHandler(updater),
                new UpdateUserFieldHandler(updater, UpdateUserFieldHandler.Field.NAME),
                new UpdateUserFieldHandler(updater, UpdateUserFieldHandler.Field.EMAIL),
                new UpdateUserFieldHandler(updater, UpdateUserFieldHandler.Field.PHONE_NUMBER),
                new CreateUserTagHandler(users, limits),
                new UpdateUserTagHandler(users),
                new DeleteUserTagsHandler(users));
        this.oauthProviderHandlers = List.of(
                new CreateOauthProvidersHandler(users, oauthProviders, oidc),
                new DeleteOauthProvidersHandler(oauthProviders));
    }

    /** Users, their API keys, authenticators and tags. */
    public List<ActivityHandler<?>> handlers() {
        return handlers;
    }

    /** The users' OAuth providers (create, delete); apart, as they are registered after the OAuth features. */
    public List<ActivityHandler<?>> oauthProviderHandlers() {
        return oauthProviderHandlers;
    }

    public Credentials credentials() {
        return credentials;
    }

    public OauthProviders oauthProviders() {
        return oauthProviders;
    }

    public UserCreator creator() {
        return creator;
    }

    public UserQueries queries() {
        return queries;
    }
}
