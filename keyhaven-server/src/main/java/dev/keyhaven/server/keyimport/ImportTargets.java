package dev.keyhaven.server.keyimport;

import dev.keyhaven.server.activity.ActivityContext;
import dev.keyhaven.server.api.ApiException;
import dev.keyhaven.server.custody.KeyTransfer;
import dev.keyhaven.server.user.UserRepository;
import java.time.Duration;

/**
 * Issuing and using import targets. A user has at most one live target per kind: each init replaces the previous
 * one, an import uses it up (in the import's transaction, so a failed import leaves it usable), and a target older
 * than {@link #VALIDITY} is refused.
 */
public final class ImportTargets {
    /** How long a target may be used after init; Turnkey does not document its own. */
    public static final Duration VALIDITY = Duration.ofHours(1);

    private final ImportTargetRepository targets;
    private final UserRepository users;
    private final KeyTransfer transfer;

    public ImportTargets(ImportTargetRepository targets, UserRepository users, KeyTransfer transfer) {
        this.targets = targets;
        this.users = users;
        this.transfer = transfer;
    }

    KeyTransfer transfer() {
        return transfer;
    }

    /** A fresh target for {@code userId}, replacing the user's earlier ones of this kind; returns the bundle. */
    String issue(ActivityContext context, String userId, ImportKind kind) {
        String org = context.organizationId();
        requireUser(context, userId);
        String id = context.ids().next();
        KeyTransfer.ImportTarget fresh = transfer.newImportTarget(context.tx(), org, userId, id);
        targets.deleteAll(context.tx(), org, userId, kind);
        targets.insert(
                context.tx(),
                new ImportTarget(
                        id,
                        org,
                        userId,
                        kind,
                        fresh.publicKeyHex(),
                        fresh.sealedKey(),
                        context.now(),
                        context.now().plus(VALIDITY)));
        return fresh.importBundle();
    }

    /**
     * The user's live target of this kind, used up by this call (the deletion commits with the import).
     *
     * @throws ApiException 400 when the user has none or it expired
     */
    KeyTransfer.TargetHandle useUp(ActivityContext context, String userId, ImportKind kind) {
        String org = context.organizationId();
        requireUser(context, userId);
        ImportTarget target = targets.latest(context.tx(), org, userId, kind)
                .orElseThrow(() -> ApiException.badRequest("user " + userId + " has no import target: call "
                        + kind.initOperation() + " first (each target serves one import)"));
        if (!context.now().isBefore(target.expiresAt())) {
            throw ApiException.badRequest("the import target of user " + userId + " expired at " + target.expiresAt()
                    + ": call " + kind.initOperation() + " again");
        }
        targets.deleteAll(context.tx(), org, userId, kind);
        return new KeyTransfer.TargetHandle(org, target.id(), target.sealedKey());
    }

    private void requireUser(ActivityContext context, String userId) {
        if (users.find(context.tx(), context.organizationId(), userId).isEmpty()) {
            throw ApiException.notFound("no user found with id " + userId);
        }
    }
}
