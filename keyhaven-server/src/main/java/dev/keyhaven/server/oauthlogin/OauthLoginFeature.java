package dev.keyhaven.server.oauthlogin;

import dev.keyhaven.server.activity.ActivityHandler;
import dev.keyhaven.server.oidc.OidcVerifier;
import dev.keyhaven.server.session.BundleKeys;
import dev.keyhaven.server.session.Sessions;
import dev.keyhaven.server.user.OauthProviderRepository;
import java.util.List;

/**
 * OAuth login assembled: a verified OIDC token of a user's provider, spent on a session (or, in the older
 * {@code oauth} activity, on a key delivered as a credential bundle).
 */
public final class OauthLoginFeature {
    private final OauthLogin login;
    private final List<ActivityHandler<?>> handlers;

    public OauthLoginFeature(
            OidcVerifier oidc, OauthProviderRepository providers, Sessions sessions, BundleKeys bundleKeys) {
        this.login = new OauthLogin(oidc, providers, sessions);
        this.handlers = List.of(new OauthLoginHandler(login), new OauthHandler(login, bundleKeys));
    }

    public List<ActivityHandler<?>> handlers() {
        return handlers;
    }

    /** The login itself, which the auth proxy also offers. */
    public OauthLogin login() {
        return login;
    }
}
