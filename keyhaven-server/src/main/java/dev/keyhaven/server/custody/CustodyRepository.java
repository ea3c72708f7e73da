package dev.keyhaven.server.custody;

import dev.keyhaven.server.tx.Tx;
import java.time.Instant;
import java.util.Optional;

/** Storage of the value that tells whether a KEK is the one the database's secrets were sealed with, and of the
 * bundle signer. */
public interface CustodyRepository {

    Optional<SealedSecret> masterKeyCheck(Tx tx);

    /** Records the check value; a concurrent first start by another process makes this a constraint violation. */
    void insertMasterKeyCheck(Tx tx, SealedSecret check, Instant createdAt);

    /** A signing key of the deployment: its public key (hex, uncompressed) and its sealed private key. */
    record StoredSigner(String publicKeyHex, SealedSecret sealedKey) {}

    /** The signer recorded under {@code role} ({@code signer}: the bundle signer; {@code otp-signer}, …). */
    Optional<StoredSigner> signer(Tx tx, String role);

    /** Records a signer; a concurrent first start by another process makes this a constraint violation. */
    void insertSigner(Tx tx, String role, StoredSigner signer, Instant createdAt);
}
