package dev.keyhaven.server.otp;

import dev.keyhaven.server.custody.SealedSecret;
import dev.keyhaven.server.tx.Tx;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/** Storage of OTPs, used verification tokens, and the user lookups by contact. */
public interface OtpRepository {

    /** One OTP as stored: never its code, only the code's keyed hash; {@code flow}: the sign-in that sent it. */
    record StoredOtp(
            String id,
            String organizationId,
            OtpFlow flow,
            OtpType type,
            String contact,
            String codeHash,
            SealedSecret sealedKey,
            int attempts,
            Instant expiresAt,
            Optional<Instant> usedAt) {}

    void insert(Tx tx, StoredOtp otp, Instant createdAt);

    Optional<StoredOtp> find(Tx tx, String otpId);

    /** Marks the OTP used; false when it already was (a concurrent verification won). */
    boolean markUsed(Tx tx, String otpId, Instant now);

    /** Raises the OTP's count of wrong attempts to at least {@code attempts}. */
    void raiseAttempts(Tx tx, String otpId, int attempts);

    /** Deletes OTPs and used-token records that expired before {@code before}. */
    void deleteExpired(Tx tx, Instant before);

    /** Records that a verification token was used; false when it already was. */
    boolean useToken(Tx tx, String tokenId, String organizationId, Instant now, Instant expiresAt);

    /** A user found by contact: the organization it belongs to and its id. */
    record Member(String organizationId, String userId) {}

    /**
     * The users whose email (case-insensitive) or phone number is {@code contact}, in {@code organizationId} and its
     * direct sub-organizations.
     */
    List<Member> usersWithContact(Tx tx, String organizationId, OtpType type, String contact);
}
