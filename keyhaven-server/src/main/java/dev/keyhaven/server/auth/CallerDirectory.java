package dev.keyhaven.server.auth;

import dev.keyhaven.server.tx.Tx;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/** The lookups caller resolution needs; implemented by the store. */
public interface CallerDirectory {

    /** The organization and its parent, if it exists. */
    Optional<OrganizationNode> organization(Tx tx, String organizationId);

    /** The credential of this kind and key held by a user of the organization. */
    Optional<CredentialMatch> credential(Tx tx, String organizationId, VerifiedStamp.Kind kind, String credentialKey);

    /** The credentials of this kind and key held by users of the organization's sub-organizations. */
    List<CredentialMatch> credentialInSubOrganizations(Tx tx, String parentOrganizationId, VerifiedStamp.Kind kind,
            String credentialKey);

    /** An organization and its parent. */
    record OrganizationNode(String id, Optional<String> parentId) {
    }

    /**
     * A credential found for a stamp.
     *
     * @param credentialId the API key id or authenticator id
     * @param credentialType the {@code CREDENTIAL_TYPE_*} wire value
     * @param expiresAt when an expiring API key stops working
     */
    record CredentialMatch(String organizationId, String userId, String credentialId, String credentialType,
            Optional<Instant> expiresAt) {
    }
}
