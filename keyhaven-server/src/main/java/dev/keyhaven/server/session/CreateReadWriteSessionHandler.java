package dev.keyhaven.server.session;

import static dev.keyhaven.server.activity.VersionTable.version;

import dev.keyhaven.server.activity.ActivityAction;
import dev.keyhaven.server.activity.ActivityContext;
import dev.keyhaven.server.activity.ActivityHandler;
import dev.keyhaven.server.activity.ActivityResource;
import dev.keyhaven.server.activity.ActivitySpec;
import dev.keyhaven.server.activity.ActivityType;
import dev.keyhaven.server.activity.VersionTable;
import dev.keyhaven.server.api.ApiException;
import dev.keyhaven.server.api.Params;
import dev.keyhaven.server.custody.KeyTransfer;
import dev.keyhaven.server.mail.MailAddresses;
import dev.keyhaven.server.organization.OrganizationRepository;
import dev.keyhaven.server.user.ApiKeyCurve;
import dev.keyhaven.server.user.UserRepository;
import java.util.Optional;

/**
 * {@code create_read_write_session}: a fresh P-256 key becomes an expiring API key of the user, and its private key
 * goes to the client only as a credential bundle encrypted to {@code targetPublicKey}. V2 ({@code
 * createReadWriteSessionResultV2}) names the user by {@code userId} (the submitter when absent); V1 (sent by
 * {@code @turnkey/http} 2.11–2.12 and sdk-server 1.1–1.2, answered under {@code createReadWriteSessionResult} in the
 * same shape) by a required {@code email} of a user of the organization, and has no {@code invalidateExisting}.
 */
final class CreateReadWriteSessionHandler implements ActivityHandler<CreateReadWriteSessionHandler.Intent> {
    static final VersionTable<Intent> VERSIONS = VersionTable.of(
            version(
                    ActivityType.CREATE_READ_WRITE_SESSION_V2,
                    "createReadWriteSessionIntentV2",
                    "createReadWriteSessionResultV2",
                    CreateReadWriteSessionHandler::readV2),
            version(
                    ActivityType.CREATE_READ_WRITE_SESSION,
                    "createReadWriteSessionIntent",
                    "createReadWriteSessionResult",
                    CreateReadWriteSessionHandler::readV1));

    private static final ActivitySpec SPEC =
            ActivitySpec.of("create_read_write_session", ActivityResource.AUTH, ActivityAction.CREATE, VERSIONS);

    private final Sessions sessions;
    private final KeyTransfer transfer;
    private final OrganizationRepository organizations;
    private final UserRepository users;

    public CreateReadWriteSessionHandler(
            Sessions sessions, KeyTransfer transfer, OrganizationRepository organizations, UserRepository users) {
        this.sessions = sessions;
        this.transfer = transfer;
        this.organizations = organizations;
        this.users = users;
    }

    /** Who the session is for: a user id (V2), or an email (V1). */
    public sealed interface Holder permits ById, ByEmail {}

    /** V2: {@code userId}, or the submitter when absent. */
    public record ById(Optional<String> userId) implements Holder {}

    /** V1: the user of the organization with this email. */
    public record ByEmail(String email) implements Holder {}

    /** The validated parameters. */
    public record Intent(
            byte[] targetPublicKey,
            Holder holder,
            Optional<String> apiKeyName,
            long expirationSeconds,
            boolean invalidateExisting) {}

    @Override
    public ActivitySpec spec() {
        return SPEC;
    }

    @Override
    public Intent parse(Params p) {
        return parse(p, ActivityType.CREATE_READ_WRITE_SESSION_V2);
    }

    @Override
    public Intent parse(Params p, ActivityType type) {
        return VERSIONS.read(p, type);
    }

    static Intent readV2(Params p) {
        return read(
                p,
                new ById(p.optionalString("userId").filter(s -> !s.isEmpty())),
                p.optionalBoolean("invalidateExisting", false));
    }

    static Intent readV1(Params p) {
        String email = p.requiredString("email");
        if (!MailAddresses.isValid(email)) {
            throw ApiException.badField(p.pathOf("email"), "is not an email address");
        }
        return read(p, new ByEmail(email), false);
    }

    private static Intent read(Params p, Holder holder, boolean invalidateExisting) {
        return new Intent(
                KeyTransfer.targetKey(p.requiredString("targetPublicKey"), p.pathOf("targetPublicKey")),
                holder,
                p.optionalString("apiKeyName").filter(s -> !s.isBlank()),
                Sessions.lifetime(
                        p.optionalUint64("expirationSeconds"), Sessions.DEFAULT_SECONDS, p.pathOf("expirationSeconds")),
                invalidateExisting);
    }

    @Override
    public Object execute(ActivityContext context, Intent intent) {
        String org = context.organizationId();
        String userId = switch (intent.holder()) {
            case ById byId -> byId.userId().orElse(context.submitter().userId());
            case ByEmail byEmail ->
                users.userWithEmail(context.tx(), org, byEmail.email())
                        .orElseThrow(() ->
                                ApiException.notFound("no user of this organization has the email " + byEmail.email()));
        };
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

    /** {@code createReadWriteSessionResultV2}, and V1's {@code createReadWriteSessionResult}. */
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
