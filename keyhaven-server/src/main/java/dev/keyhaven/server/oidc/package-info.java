/**
 * OIDC ID-token verification: the issuers this deployment trusts ({@link dev.keyhaven.server.oidc.IssuerConfig}, read
 * from {@code serve --oidc-issuers}, and in-process issuers added in code), and
 * {@link dev.keyhaven.server.oidc.OidcVerifier}, which picks the issuer by the token's {@code iss} before fetching
 * anything and checks signature (Nimbus JOSE+JWT), audience, lifetime and nonce. Knows no user, organization or store.
 */
package dev.keyhaven.server.oidc;
