package dev.keyhaven.server.custody;

import dev.keyhaven.server.tx.Tx;
import java.time.Instant;
import java.util.Optional;

/** Storage of the deployment's signers (the bundle signers and the other keys of {@code DeploymentKeys}). */
public interface CustodyRepository {

    /** A signing key of the deployment: its public key (hex, uncompressed) and its sealed private key. */
    record StoredSigner(String publicKeyHex, SealedSecret sealedKey) {}

    /** The signer recorded under {@code role} ({@code signer}: the bundle signer; {@code otp-signer}, …). */
    Optional<StoredSigner> signer(Tx tx, String role);

    /** Records a signer; a concurrent first start by another process makes this a constraint violation. */
    void insertSigner(Tx tx, String role, StoredSigner signer, Instant createdAt);
}
