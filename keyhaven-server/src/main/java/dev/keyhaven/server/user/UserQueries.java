package dev.keyhaven.server.user;

import dev.keyhaven.server.api.ApiException;
import dev.keyhaven.server.api.Caller;
import dev.keyhaven.server.api.Params;
import dev.keyhaven.server.tx.Transactor;
import dev.keyhaven.server.tx.Tx;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The read side of users: get_user, list_users, get_api_keys, get_api_key, get_authenticators, get_authenticator,
 * list_user_tags, get_oauth_providers. Each runs in one read transaction of the caller's target organization.
 */
public final class UserQueries {
    private final Transactor transactor;
    private final UserRepository users;
    private final OauthProviderRepository oauthProviders;

    public UserQueries(Transactor transactor, UserRepository users, OauthProviderRepository oauthProviders) {
        this.transactor = transactor;
        this.users = users;
        this.oauthProviders = oauthProviders;
    }

    /** {@code get_user {organizationId, userId}} → {@code {user}}. */
    public Map<String, Object> getUser(Caller caller, Params body) {
        String userId = body.requiredString("userId");
        return Map.of(
                "user",
                transactor.read(tx -> user(tx, caller.organizationId(), userId)
                        .orElseThrow(() -> ApiException.notFound("no user found with id " + userId))));
    }

    /** {@code list_users {organizationId}} → {@code {users}}, oldest first. */
    public Map<String, Object> listUsers(Caller caller, Params body) {
        String org = caller.organizationId();
        return Map.of(
                "users",
                transactor.read(tx -> WireViews.users(
                        users.list(tx, org),
                        users.apiKeys(tx, org, Optional.empty()),
                        users.authenticators(tx, org, Optional.empty()),
                        users.userTagIds(tx, org),
                        oauthProviders.list(tx, org, Optional.empty()))));
    }

    /** {@code get_oauth_providers {organizationId, userId?}} → {@code {oauthProviders}}, oldest first. */
    public Map<String, Object> getOauthProviders(Caller caller, Params body) {
        Optional<String> userId = body.optionalString("userId").filter(id -> !id.isEmpty());
        return Map.of("oauthProviders", transactor.read(tx -> {
            userId.ifPresent(id -> requireUser(tx, caller.organizationId(), id));
            return oauthProviders.list(tx, caller.organizationId(), userId).stream()
                    .map(WireViews::oauthProvider)
                    .toList();
        }));
    }

    /** {@code get_api_keys {organizationId, userId?}} → {@code {apiKeys}}. */
    public Map<String, Object> getApiKeys(Caller caller, Params body) {
        Optional<String> userId = body.optionalString("userId");
        return Map.of("apiKeys", transactor.read(tx -> {
            userId.ifPresent(id -> requireUser(tx, caller.organizationId(), id));
            return users.apiKeys(tx, caller.organizationId(), userId).stream()
                    .map(WireViews::apiKey)
                    .toList();
        }));
    }

    /** {@code get_api_key {organizationId, apiKeyId}} → {@code {apiKey}}. */
    public Map<String, Object> getApiKey(Caller caller, Params body) {
        String apiKeyId = body.requiredString("apiKeyId");
        return Map.of(
                "apiKey",
                transactor
                        .read(tx -> users.findApiKey(tx, caller.organizationId(), apiKeyId))
                        .map(WireViews::apiKey)
                        .orElseThrow(() -> ApiException.notFound("no api key found with id " + apiKeyId)));
    }

    /** {@code get_authenticators {organizationId, userId}} → {@code {authenticators}}. */
    public Map<String, Object> getAuthenticators(Caller caller, Params body) {
        String userId = body.requiredString("userId");
        return Map.of("authenticators", transactor.read(tx -> {
            requireUser(tx, caller.organizationId(), userId);
            return users.authenticators(tx, caller.organizationId(), Optional.of(userId)).stream()
                    .map(WireViews::authenticator)
                    .toList();
        }));
    }

    /** {@code get_authenticator {organizationId, authenticatorId}} → {@code {authenticator}}. */
    public Map<String, Object> getAuthenticator(Caller caller, Params body) {
        String authenticatorId = body.requiredString("authenticatorId");
        return Map.of(
                "authenticator",
                transactor
                        .read(tx -> users.findAuthenticator(tx, caller.organizationId(), authenticatorId))
                        .map(WireViews::authenticator)
                        .orElseThrow(() -> ApiException.notFound("no authenticator found with id " + authenticatorId)));
    }

    /** {@code list_user_tags {organizationId}} → {@code {userTags}}. */
    public Map<String, Object> listUserTags(Caller caller, Params body) {
        return Map.of(
                "userTags",
                transactor
                        .read(tx -> users.tags(tx, caller.organizationId(), Optional.of(TagType.TAG_TYPE_USER)))
                        .stream()
                        .map(WireViews::tag)
                        .toList());
    }

    /** The ids of the organization's users, oldest first. */
    public List<String> userIds(Tx tx, String organizationId) {
        return users.list(tx, organizationId).stream().map(User::id).toList();
    }

    /** The wire form of one user, read within {@code tx}. */
    public Optional<WireViews.WireUser> user(Tx tx, String organizationId, String userId) {
        return users.find(tx, organizationId, userId)
                .map(u -> WireViews.user(
                        u,
                        users.apiKeys(tx, organizationId, Optional.of(userId)),
                        users.authenticators(tx, organizationId, Optional.of(userId)),
                        users.tagIdsOfUser(tx, userId),
                        oauthProviders.list(tx, organizationId, Optional.of(userId))));
    }

    private void requireUser(Tx tx, String organizationId, String userId) {
        if (users.find(tx, organizationId, userId).isEmpty()) {
            throw ApiException.notFound("no user found with id " + userId);
        }
    }
}
