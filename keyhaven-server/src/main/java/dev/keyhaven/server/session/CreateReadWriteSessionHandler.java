package dev.keyhaven.server.session;

import dev.keyhaven.server.activity.ActivityAction;
import dev.keyhaven.server.activity.ActivityContext;
import dev.keyhaven.server.activity.ActivityHandler;
import dev.keyhaven.server.activity.ActivityResource;
import dev.keyhaven.server.activity.ActivitySpec;
import dev.keyhaven.server.activity.ActivityType;
import dev.keyhaven.server.activity.ActivityVersion;
import dev.keyhaven.server.api.ApiException;
import dev.keyhaven.server.api.Params;
import dev.keyhaven.server.custody.KeyTransfer;
import dev.keyhaven.server.organization.OrganizationRepository;
import dev.keyhaven.server.user.ApiKeyCurve;
import java.util.Optional;

/**
 * {@code create_read_write_session} (V2): a fresh P-256 key becomes an expiring API key of the user (the submitter
 * unless {@code userId} names another user of the organization), and its private key goes to the client only as a
 * credential bundle encrypted to {@code targetPublicKey} ({@code createReadWriteSessionResultV2}).
 */
final class CreateReadWriteSessionHandler implements ActivityHandler<CreateReadWriteSessionHandler.Intent> {
    private static final ActivitySpec SPEC = ActivitySpec.of(
            "create_read_write_session",
            ActivityResource.AUTH,
            ActivityAction.CREATE,
            new ActivityVersion(
                    ActivityType.CREATE_READ_WRITE_SESSION_V2,
                    "createReadWriteSessionIntentV2",
                    "createReadWriteSessionResultV2"));

    private final Sessions sessions;
    private final KeyTransfer transfer;
    private final OrganizationRepository organizations;

    public CreateReadWriteSessionHandler(
            Sessions sessions, KeyTransfer transfer, OrganizationRepository organizations) {
        this.sessions = sessions;
        this.transfer = transfer;
        this.organizations = organizations;
    }

    /** The validated parameters. */
    public record Intent(
            byte[] targetPublicKey,
            Optional<String> userId,
            Optional<String> apiKeyName,
            long expirationSeconds,
            boolean invalidateExisting) {}

    @Override
    public ActivitySpec spec() {
        return SPEC;
    }

    @Override
    public Intent parse(Params p) {
        return new Intent(
                KeyTransfer.targetKey(p.requiredString("targetPublicKey"), p.pathOf("targetPublicKey")),
                p.optionalString("userId").filter(s -> !s.isEmpty()),
                p.optionalString("apiKeyName").filter(s -> !s.isBlank()),
                Sessions.lifetime(
                        p.optionalUint64("expirationSeconds"), Sessions.DEFAULT_SECONDS, p.pathOf("expirationSeconds")),
                p.optionalBoolean("invalidateExisting", false));
    }

    @Override
    public Object execute(ActivityContext context, Intent intent) {
        String org = context.organizationId();
        String userId = intent.userId().orElse(context.submitter().userId());
        OrganizationRepository.MemberNames names = organizations
                .memberNames(context.tx(), org, userId)
                .orElseThrow(() -> ApiException.notFound("no user with id " + userId + " in this organization"));
        KeyTransfer.RecoveryCredential credential = transfer.newRecoveryCredential(intent.targetPublicKey());
        String apiKeyId = sessions.addKey(
                context.tx(),
                org,
                userId,
                credential.publicKeyHex(),
                ApiKeyCurve.API_KEY_CURVE_P256.credentialType(),
                intent.apiKeyName().orElse("Read-write session " + context.now().getEpochSecond()),
                new Sessions.Request(
                        credential.publicKeyHex(), intent.expirationSeconds(), intent.invalidateExisting()),
                context.now(),
                context.ids());
        return new Result(
                org, names.organizationName(), userId, names.userName(), apiKeyId, credential.credentialBundle());
    }

    /** {@code createReadWriteSessionResultV2}. */
    public record Result(
            String organizationId,
            String organizationName,
            String userId,
            String username,
            String apiKeyId,
            String credentialBundle) {
        @Override
        public String toString() {
            return "Result[" + organizationId + ", " + userId + ", " + apiKeyId + ", bundle redacted]";
        }
    }
}
