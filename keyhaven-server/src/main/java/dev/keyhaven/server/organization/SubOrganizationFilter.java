package dev.keyhaven.server.organization;

/**
 * What {@code list_suborgs} and {@code list_verified_suborgs} select a parent's sub-organizations by. Contacts and
 * keys are compared as {@link SubOrganizationQueries} normalises them; an OIDC token has been verified and reduced to
 * its identity before it becomes a filter.
 */
public sealed interface SubOrganizationFilter {
    /** Every sub-organization. */
    record All() implements SubOrganizationFilter {}

    /** The sub-organization's name, exactly. */
    record Name(String name) implements SubOrganizationFilter {}

    /** A user's name, exactly. */
    record Username(String name) implements SubOrganizationFilter {}

    /** A user's email, compared case-insensitively; only verified ones if {@code verifiedOnly}. */
    record Email(String normalized, boolean verifiedOnly) implements SubOrganizationFilter {}

    /** A user's phone number, exactly; only verified ones if {@code verifiedOnly}. */
    record PhoneNumber(String number, boolean verifiedOnly) implements SubOrganizationFilter {}

    /** A passkey's credential id. */
    record CredentialId(String credentialId) implements SubOrganizationFilter {}

    /** An API key's or passkey's public key (hex, lower case). */
    record PublicKey(String publicKey) implements SubOrganizationFilter {}

    /** A wallet account's or private key's address (as the address lookups compare it). */
    record Address(String addressKey) implements SubOrganizationFilter {}

    /** A user's OAuth provider with this issuer, subject and audience. */
    record OauthIdentity(String issuer, String subject, String audience) implements SubOrganizationFilter {}
}
