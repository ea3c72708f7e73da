package dev.keyhaven.server.auth;

import dev.keyhaven.server.api.ApiException;
import dev.keyhaven.server.api.Caller;
import dev.keyhaven.server.api.ErrorCode;
import dev.keyhaven.server.state.OrganizationState;
import dev.keyhaven.server.tx.Transactor;
import dev.keyhaven.server.tx.Tx;
import java.time.Clock;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Finds the user behind a verified stamp, relative to the organization a request targets: first among the
 * organization's own users, then among its parent's users (who may read, not write), and, for lookups that allow
 * it, among the users of its sub-organizations (exactly one must match).
 */
public final class CallerResolver {
    private static final Pattern UUID =
            Pattern.compile("[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}");

    private final Transactor transactor;
    private final CallerDirectory directory;
    private final Clock clock;

    public CallerResolver(Transactor transactor, CallerDirectory directory, Clock clock) {
        this.transactor = transactor;
        this.directory = directory;
        this.clock = clock;
    }

    /** Where a credential may be found relative to the target organization. */
    public enum Scope {
        /** The organization's users, or its parent's (read-only). */
        ORGANIZATION_OR_PARENT,
        /** As above, and else the single sub-organization holding the credential (whoami, logins). */
        WITH_SUB_ORGANIZATIONS
    }

    /** Checks the form of an organization id before any lookup. */
    public static void checkOrganizationId(String organizationId) {
        if (!UUID.matcher(organizationId).matches()) {
            throw new ApiException(
                    ErrorCode.MALFORMED_ORGANIZATION_ID, "malformed organization ID provided", "organizationId");
        }
    }

    public Caller resolve(VerifiedStamp stamp, String organizationId, Scope scope) {
        checkOrganizationId(organizationId);
        return transactor.read(tx -> {
            CallerDirectory.Target target = directory
                    .target(tx, organizationId, stamp.kind(), stamp.credentialKey())
                    .orElseThrow(() -> new ApiException(
                            ErrorCode.ORGANIZATION_NOT_FOUND, "no organization found with the given ID"));
            CallerDirectory.OrganizationNode organization = target.organization();
            CallerDirectory.CredentialMatch match =
                    target.credential().orElseGet(() -> findElsewhere(tx, organization, stamp, scope));
            checkUsable(stamp, match);
            checkIssuedFor(stamp, organization, match);
            String effectiveOrganization =
                    match.organizationId().equals(organization.parentId().orElse(null))
                            ? organization.id()
                            : match.organizationId();
            return new Caller(
                    effectiveOrganization,
                    match.organizationId(),
                    match.userId(),
                    new Caller.CredentialRef(match.credentialId(), match.credentialType(), stamp.credentialKey()),
                    stamp.record());
        });
    }

    /**
     * Resolves the caller of an activity that runs on {@code state}: a credential of the organization's own users is
     * looked up through the state (and remembered with it), anything else as {@link #resolve} does.
     */
    public Caller resolveAt(VerifiedStamp stamp, OrganizationState state, Scope scope) {
        Optional<CallerDirectory.CredentialMatch> own = state.get(
                new OwnCredential(stamp.kind(), stamp.credentialKey()),
                tx -> directory.credential(tx, state.organizationId(), stamp.kind(), stamp.credentialKey()));
        if (own.isEmpty() || stamp.issuedFor().isPresent()) {
            return resolve(stamp, state.organizationId(), scope);
        }
        CallerDirectory.CredentialMatch match = own.get();
        checkUsable(stamp, match);
        return new Caller(
                state.organizationId(),
                match.organizationId(),
                match.userId(),
                new Caller.CredentialRef(match.credentialId(), match.credentialType(), stamp.credentialKey()),
                stamp.record());
    }

    /** The lookup of a credential among the organization's own users. */
    private record OwnCredential(VerifiedStamp.Kind kind, String credentialKey) {}

    /** The credential when no user of the target organization holds it: the parent's users, then sub-organizations. */
    private CallerDirectory.CredentialMatch findElsewhere(
            Tx tx, CallerDirectory.OrganizationNode target, VerifiedStamp stamp, Scope scope) {
        if (target.parentId().isPresent()) {
            Optional<CallerDirectory.CredentialMatch> parent =
                    directory.credential(tx, target.parentId().get(), stamp.kind(), stamp.credentialKey());
            if (parent.isPresent()) {
                return parent.get();
            }
        }
        if (scope == Scope.WITH_SUB_ORGANIZATIONS) {
            List<CallerDirectory.CredentialMatch> inSubs =
                    directory.credentialInSubOrganizations(tx, target.id(), stamp.kind(), stamp.credentialKey());
            if (inSubs.size() == 1) {
                return inSubs.getFirst();
            }
            if (inSubs.size() > 1) {
                throw new ApiException(
                        ErrorCode.CREDENTIAL_CONFLICT,
                        stamp.kind() == VerifiedStamp.Kind.API_KEY
                                ? "more than one suborg associated with a public key"
                                : "more than one suborg associated with a credential ID");
            }
        }
        throw switch (stamp.kind()) {
            case API_KEY ->
                new ApiException(
                        ErrorCode.PUBLIC_KEY_NOT_FOUND,
                        "public key could not be found in organization or its parent organization");
            case WEBAUTHN ->
                new ApiException(
                        ErrorCode.CREDENTIAL_NOT_FOUND,
                        "credential ID could not be found in organization or its parent organization");
            case OIDC ->
                new ApiException(
                        ErrorCode.CREDENTIAL_NOT_FOUND,
                        "no user of the organization or its parent "
                                + "organization has an OAuth provider for the attested OIDC identity");
            case OTP_EMAIL, OTP_SMS ->
                new ApiException(
                        ErrorCode.CREDENTIAL_NOT_FOUND,
                        "no user of the organization "
                                + "or its parent organization has the contact the attested verification token proves");
        };
    }

    /**
     * An OTP verification token proves a contact for the organization it was issued in: the caller must belong to it
     * or to one of its sub-organizations.
     */
    private static void checkIssuedFor(
            VerifiedStamp stamp, CallerDirectory.OrganizationNode target, CallerDirectory.CredentialMatch match) {
        if (stamp.issuedFor().isEmpty()) {
            return;
        }
        String matched = match.organizationId();
        Optional<String> matchedParent = matched.equals(target.id())
                ? target.parentId()
                : matched.equals(target.parentId().orElse(null)) ? Optional.empty() : Optional.of(target.id());
        String issuedFor = stamp.issuedFor().get();
        if (!issuedFor.equals(matched)
                && !matchedParent.filter(issuedFor::equals).isPresent()) {
            throw new ApiException(
                    ErrorCode.SIGNATURE_INVALID,
                    "could not verify attested stamp: the verification " + "token was issued for another organization");
        }
    }

    private void checkUsable(VerifiedStamp stamp, CallerDirectory.CredentialMatch match) {
        Optional<StampScheme> scheme = stamp.apiKeyScheme();
        if (scheme.isPresent() && !scheme.get().accepts(match.credentialType())) {
            throw new ApiException(
                    ErrorCode.SIGNATURE_INVALID,
                    "could not verify api key signature: scheme " + scheme.get().wireName()
                            + " does not match the key's type " + match.credentialType());
        }
        if (match.expiresAt().isPresent() && !match.expiresAt().get().isAfter(clock.instant())) {
            throw new ApiException(ErrorCode.API_KEY_EXPIRED, "expired api key");
        }
    }
}
