package dev.keyhaven.server.auth;

import dev.keyhaven.server.tx.Tx;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/** The lookups caller resolution needs; implemented by the store. */
public interface CallerDirectory {

    /**
     * The organization (if it exists) together with the credential of this kind and key held by one of its users
     * (if any): one lookup, because every authenticated request needs both.
     */
    Optional<Target> target(Tx tx, String organizationId, VerifiedStamp.Kind kind, String credentialKey);

    /** The credential of this kind and key held by a user of the organization. */
    Optional<CredentialMatch> credential(Tx tx, String organizationId, VerifiedStamp.Kind kind, String credentialKey);

    /** The credentials of this kind and key held by users of the organization's sub-organizations. */
    List<CredentialMatch> credentialInSubOrganizations(
            Tx tx, String parentOrganizationId, VerifiedStamp.Kind kind, String credentialKey);

    /** A request's target organization and the caller's credential in it, if the caller is one of its users. */
    record Target(OrganizationNode organization, Optional<CredentialMatch> credential) {}

    /** An organization and its parent. */
    record OrganizationNode(String id, Optional<String> parentId) {}

    /**
     * A credential found for a stamp.
     *
     * @param credentialId the API key id or authenticator id
     * @param credentialType the {@code CREDENTIAL_TYPE_*} wire value
     * @param expiresAt when an expiring API key stops working
     */
    record CredentialMatch(
            String organizationId,
            String userId,
            String credentialId,
            String credentialType,
            Optional<Instant> expiresAt) {}
}
