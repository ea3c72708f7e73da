package dev.keyhaven.server.api;

/**
 * The authenticated author of a request: the user whose credential stamped it, the organization that user belongs
 * to, and how the request's target organization relates to it.
 *
 * @param organizationId the organization the request targets (after any sub-organization lookup)
 * @param userOrganizationId the organization the user belongs to; differs from {@code organizationId} when a parent
 *        organization's user reads a sub-organization
 * @param userId the user
 * @param credential the credential that produced the stamp
 * @param stamp what the caller signed, kept for the activity's votes
 */
public record Caller(
        String organizationId, String userOrganizationId, String userId, CredentialRef credential, StampRecord stamp) {

    /** The credential type of an email-recovery credential ({@code init_user_email_recovery}). */
    public static final String RECOVERY_CREDENTIAL_TYPE = "CREDENTIAL_TYPE_RECOVER_USER_KEY_P256";

    /** The one operation a recovery credential may stamp. */
    public static final String RECOVERY_OPERATION = "recover_user";

    /**
     * Refuses every operation but {@code recover_user} to a recovery credential: it proves control of an email
     * address, which is enough to add a credential and nothing more.
     */
    public void requireMayCall(String operation) {
        if (RECOVERY_CREDENTIAL_TYPE.equals(credential.type()) && !RECOVERY_OPERATION.equals(operation)) {
            throw new ApiException(
                    ErrorCode.REQUEST_NOT_AUTHORIZED, "a recovery credential may only stamp " + RECOVERY_OPERATION);
        }
    }

    /** Whether the user belongs to the target organization itself (and may therefore submit activities there). */
    public boolean isMember() {
        return organizationId.equals(userOrganizationId);
    }

    /**
     * The credential that authenticated a request.
     *
     * @param id the API key id or authenticator id
     * @param type the {@code CREDENTIAL_TYPE_*} wire value
     * @param publicKey hex public key (API keys) or credential id (authenticators)
     */
    public record CredentialRef(String id, String type, String publicKey) {}

    /**
     * The stamp as received: the exact body that was signed, the signature and its scheme. These are the fields of
     * an activity vote.
     */
    public record StampRecord(String message, String publicKey, String signature, String scheme) {}
}
