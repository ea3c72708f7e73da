package dev.keyhaven.server.session;

import dev.keyhaven.server.api.Ids;
import dev.keyhaven.server.api.Params;
import dev.keyhaven.server.custody.KeyTransfer;
import dev.keyhaven.server.tx.Tx;
import dev.keyhaven.server.user.SignInKeyType;
import java.time.Instant;
import java.util.Optional;

/**
 * The older credential-bundle sign-ins ({@code email_auth}, {@code otp_auth}, {@code oauth}): a fresh P-256 key
 * becomes an expiring API key of the user, and its private half leaves only as a credential bundle encrypted to the
 * client's {@code targetPublicKey}. The key is an expiring API key of the sign-in's own credential type
 * ({@link SignInKeyType}), so the user's key limits apply and {@code invalidateExisting} ends only the user's earlier
 * keys of that kind.
 */
public final class BundleKeys {
    private final Sessions sessions;
    private final KeyTransfer transfer;

    BundleKeys(Sessions sessions, KeyTransfer transfer) {
        this.sessions = sessions;
        this.transfer = transfer;
    }

    /** The parameters every credential-bundle sign-in shares, validated. */
    public record Request(
            byte[] targetPublicKey,
            Optional<String> apiKeyName,
            SignInKeyType kind,
            long expirationSeconds,
            boolean invalidateExisting) {}

    /** A key issued: its API key id and the bundle that carries its private key. */
    public record Issued(String apiKeyId, String credentialBundle) {
        @Override
        public String toString() {
            return "Issued[" + apiKeyId + ", bundle redacted]";
        }
    }

    /**
     * Reads {@code targetPublicKey}, {@code apiKeyName} (default {@code <kind's prefix> - <timestamp>}, as Turnkey
     * names them), {@code expirationSeconds} (default 15 minutes, at most a day) and {@code invalidateExisting};
     * every problem is a 400 naming the field.
     */
    public static Request read(Params p, SignInKeyType kind) {
        byte[] target = KeyTransfer.targetKey(p.requiredString("targetPublicKey"), p.pathOf("targetPublicKey"));
        Optional<String> name = p.optionalString("apiKeyName").filter(s -> !s.isBlank());
        long lifetime = Sessions.lifetime(
                p.optionalUint64("expirationSeconds"), Sessions.DEFAULT_SECONDS, p.pathOf("expirationSeconds"));
        return new Request(target, name, kind, lifetime, p.optionalBoolean("invalidateExisting", false));
    }

    /** Registers a fresh key for {@code userId} of {@code organizationId} and seals it to the request's target. */
    public Issued issue(Tx tx, String organizationId, String userId, Request request, Instant now, Ids ids) {
        KeyTransfer.RecoveryCredential credential = transfer.newRecoveryCredential(request.targetPublicKey());
        String apiKeyId = sessions.addKey(
                tx,
                organizationId,
                userId,
                credential.publicKeyHex(),
                request.kind().credentialType(),
                request.apiKeyName().orElse(request.kind().defaultNamePrefix() + " - " + now.getEpochSecond()),
                new Sessions.Request(
                        credential.publicKeyHex(), request.expirationSeconds(), request.invalidateExisting()),
                now,
                ids);
        return new Issued(apiKeyId, credential.credentialBundle());
    }
}
