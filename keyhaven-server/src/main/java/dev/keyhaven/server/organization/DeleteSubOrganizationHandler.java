package dev.keyhaven.server.organization;

import dev.keyhaven.server.activity.ActivityAction;
import dev.keyhaven.server.activity.ActivityContext;
import dev.keyhaven.server.activity.ActivityHandler;
import dev.keyhaven.server.activity.ActivityResource;
import dev.keyhaven.server.activity.ActivitySpec;
import dev.keyhaven.server.activity.ActivityType;
import dev.keyhaven.server.activity.ActivityVersion;
import dev.keyhaven.server.api.ApiException;
import dev.keyhaven.server.api.ErrorCode;
import dev.keyhaven.server.api.Params;

/**
 * {@code delete_sub_organization}: a sub-organization deletes itself (the request's {@code organizationId} is the
 * sub-organization, its own users decide, as Turnkey has it: its parent cannot delete it alone). While it holds a
 * wallet or private key that was never exported the deletion is refused, since the key would be gone for good;
 * {@code deleteWithoutExport: true} says that is intended. Everything the sub-organization holds is deleted; its
 * activities stay as the audit trail.
 */
final class DeleteSubOrganizationHandler implements ActivityHandler<DeleteSubOrganizationHandler.Intent> {
    private static final ActivitySpec SPEC = ActivitySpec.of(
            "delete_sub_organization",
            ActivityResource.ORGANIZATION,
            ActivityAction.DELETE,
            new ActivityVersion(
                    ActivityType.DELETE_SUB_ORGANIZATION,
                    "deleteSubOrganizationIntent",
                    "deleteSubOrganizationResult"));

    private final OrganizationRepository organizations;

    DeleteSubOrganizationHandler(OrganizationRepository organizations) {
        this.organizations = organizations;
    }

    /** The flag, and its path for the refusal that names it. */
    record Intent(boolean deleteWithoutExport, String flagPath) {}

    @Override
    public ActivitySpec spec() {
        return SPEC;
    }

    @Override
    public Intent parse(Params p) {
        return new Intent(p.optionalBoolean("deleteWithoutExport", false), p.pathOf("deleteWithoutExport"));
    }

    @Override
    public Object execute(ActivityContext context, Intent intent) {
        String id = context.organizationId();
        Organization organization = organizations.find(context.tx(), id).orElseThrow();
        if (!organization.isSubOrganization()) {
            throw ApiException.badRequest(
                    "organization " + id + " is not a sub-organization; only those can be deleted");
        }
        if (!intent.deleteWithoutExport() && organizations.holdsUnexportedKeys(context.tx(), id)) {
            throw new ApiException(
                    ErrorCode.KEYS_NOT_EXPORTED,
                    "the sub-organization holds wallets or private keys that were never exported; export them first, "
                            + "or set deleteWithoutExport to delete them with it",
                    intent.flagPath());
        }
        organizations.delete(context.tx(), id);
        return new Result(id);
    }

    /** {@code deleteSubOrganizationResult}: Turnkey names the id a uuid here. */
    record Result(String subOrganizationUuid) {}
}
