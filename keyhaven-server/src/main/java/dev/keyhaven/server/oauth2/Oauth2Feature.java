package dev.keyhaven.server.oauth2;

import dev.keyhaven.server.activity.ActivityHandler;
import dev.keyhaven.server.tx.Transactor;
import java.util.List;

/**
 * OAuth 2.0 assembled: the client credentials an organization registers, and {@code oauth2_authenticate}, which
 * exchanges a provider's code and mints an OIDC token. {@link #authenticator()} also serves the auth proxy.
 */
public final class Oauth2Feature {
    private final Oauth2Authenticator authenticator;
    private final Oauth2CredentialQueries queries;
    private final List<ActivityHandler<?>> handlers;

    public Oauth2Feature(
            Transactor transactor,
            Oauth2CredentialRepository credentials,
            Oauth2Providers providers,
            Oauth2ClientSecrets secrets,
            Oauth2TokenIssuer tokens) {
        this.authenticator =
                new Oauth2Authenticator(providers, secrets, new Oauth2Exchange(), tokens, transactor, credentials);
        this.queries = new Oauth2CredentialQueries(transactor, credentials);
        this.handlers = List.of(
                new CreateOauth2CredentialHandler(credentials, secrets),
                new UpdateOauth2CredentialHandler(credentials, secrets),
                new DeleteOauth2CredentialHandler(credentials),
                new Oauth2AuthenticateHandler(credentials, authenticator));
    }

    public List<ActivityHandler<?>> handlers() {
        return handlers;
    }

    public Oauth2Authenticator authenticator() {
        return authenticator;
    }

    public Oauth2CredentialQueries queries() {
        return queries;
    }
}
