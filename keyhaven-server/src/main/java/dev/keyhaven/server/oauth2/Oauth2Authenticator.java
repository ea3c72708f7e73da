package dev.keyhaven.server.oauth2;

import dev.keyhaven.server.api.ApiException;
import dev.keyhaven.server.api.Params;
import dev.keyhaven.server.tx.Transactor;
import java.util.Map;
import java.util.Optional;

/**
 * The sign-in both {@code oauth2_authenticate} and the auth proxy's {@code /v1/oauth2_authenticate} run: the code
 * exchange with the credential's client (the secret opened only for the token request), then a token minted for the
 * provider's user. It touches no database transaction: callers read the credential first, so no write lock ever
 * waits on a provider.
 */
public final class Oauth2Authenticator {
    private final Oauth2Providers providers;
    private final Oauth2ClientSecrets secrets;
    private final Oauth2Exchange exchange;
    private final Oauth2TokenIssuer issuer;
    private final Transactor transactor;
    private final Oauth2CredentialRepository credentials;

    public Oauth2Authenticator(
            Oauth2Providers providers,
            Oauth2ClientSecrets secrets,
            Oauth2Exchange exchange,
            Oauth2TokenIssuer issuer,
            Transactor transactor,
            Oauth2CredentialRepository credentials) {
        this.providers = providers;
        this.secrets = secrets;
        this.exchange = exchange;
        this.issuer = issuer;
        this.transactor = transactor;
        this.credentials = credentials;
    }

    /** What the client sends besides naming the credential, validated. */
    public record SignIn(
            Oauth2Exchange.CodeGrant grant,
            String nonce,
            Optional<String> bearerTokenTargetPublicKey,
            String targetField) {

        /**
         * {@code authCode}, {@code redirectUri}, {@code nonce} (non-empty), {@code codeVerifier} (Turnkey's type
         * requires it; absent or empty is accepted as "no PKCE", which Discord allows), {@code
         * bearerTokenTargetPublicKey} (optional, a P-256 key).
         */
        static SignIn read(Params p) {
            String authCode = nonEmpty(p, "authCode");
            String redirectUri = nonEmpty(p, "redirectUri");
            String codeVerifier = p.optionalString("codeVerifier").orElse("");
            String nonce = nonEmpty(p, "nonce");
            Optional<String> target =
                    p.optionalString("bearerTokenTargetPublicKey").filter(k -> !k.isEmpty());
            String targetField = p.pathOf("bearerTokenTargetPublicKey");
            target.ifPresent(k -> Oauth2ClientSecrets.requireP256PublicKey(k, targetField));
            return new SignIn(
                    new Oauth2Exchange.CodeGrant(authCode, redirectUri, codeVerifier), nonce, target, targetField);
        }

        private static String nonEmpty(Params p, String name) {
            String value = p.requiredString(name);
            if (value.isBlank()) {
                throw ApiException.badField(p.pathOf(name), "must not be blank");
            }
            return value;
        }
    }

    /** Exchanges the code with {@code credential}'s client and mints the token: the {@code oidcToken}. */
    public String authenticate(Oauth2Credential credential, SignIn signIn) {
        String authorization = secrets.basicAuthorization(
                credential.organizationId(), credential.id(), credential.secretSealed(), credential.clientId());
        Oauth2Exchange.ProviderUser user = exchange.exchange(
                credential.provider(),
                providers.of(credential.provider()),
                credential.clientId(),
                authorization,
                signIn.grant());
        Optional<String> encrypted = signIn.bearerTokenTargetPublicKey()
                .map(key -> secrets.encryptBearerToken(key, user.bearerToken(), signIn.targetField()));
        return issuer.mint(credential.provider(), credential.clientId(), user.subject(), signIn.nonce(), encrypted);
    }

    /**
     * The auth proxy's {@code /v1/oauth2_authenticate} {@code {provider, clientId, authCode, redirectUri,
     * codeVerifier, nonce}} → {@code {oidcToken}}, with the credential of {@code organizationId} (the config's) for
     * that provider and client id; the credential is read in its own read transaction, before the exchange.
     */
    public Map<String, String> proxyAuthenticate(String organizationId, Params body) {
        Oauth2Provider provider = Oauth2Provider.read(body, "provider");
        String clientId = body.requiredString("clientId");
        SignIn signIn = SignIn.read(body);
        Oauth2Credential credential = transactor
                .read(tx -> credentials.findByClient(tx, organizationId, provider, clientId))
                .orElseThrow(() -> Oauth2Credentials.notFound("no OAuth 2.0 credential for " + provider.wireName()
                        + " with this client id in the auth proxy config's organization"));
        return Map.of("oidcToken", authenticate(credential, signIn));
    }
}
