package dev.keyhaven.server.store;

import dev.keyhaven.server.custody.SealedSecret;
import dev.keyhaven.server.otp.OtpFlow;
import dev.keyhaven.server.otp.OtpRepository;
import dev.keyhaven.server.otp.OtpType;
import dev.keyhaven.server.tx.Tx;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/** OTPs ({@code otp_codes}), used verification tokens ({@code otp_used_tokens}) and users found by contact. */
public final class JdbcOtpRepository implements OtpRepository {

    @Override
    public void insert(Tx tx, StoredOtp otp, Instant createdAt) {
        Sql.update(
                tx,
                "INSERT INTO otp_codes (id, organization_id, otp_type, contact, code_hash, key_sealed, attempts, "
                        + "created_at, expires_at, used_at, flow) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                otp.id(),
                otp.organizationId(),
                otp.type().name(),
                otp.contact(),
                otp.codeHash(),
                otp.sealedKey().base64(),
                otp.attempts(),
                createdAt,
                otp.expiresAt(),
                otp.usedAt(),
                otp.flow().name());
    }

    @Override
    public Optional<StoredOtp> find(Tx tx, String otpId) {
        return Sql.one(
                tx,
                "SELECT id, organization_id, otp_type, contact, code_hash, key_sealed, attempts, expires_at, "
                        + "used_at, flow FROM otp_codes WHERE id = ?",
                rs -> new StoredOtp(
                        rs.getString(1),
                        rs.getString(2),
                        OtpFlow.valueOf(rs.getString("flow")),
                        OtpType.valueOf(rs.getString(3)),
                        rs.getString(4),
                        rs.getString(5),
                        new SealedSecret(rs.getString(6)),
                        rs.getInt(7),
                        Sql.instant(rs, "expires_at"),
                        Sql.optionalInstant(rs, "used_at")),
                otpId);
    }

    @Override
    public boolean markUsed(Tx tx, String otpId, Instant now) {
        return Sql.update(tx, "UPDATE otp_codes SET used_at = ? WHERE id = ? AND used_at IS NULL", now, otpId) == 1;
    }

    @Override
    public void raiseAttempts(Tx tx, String otpId, int attempts) {
        Sql.update(tx, "UPDATE otp_codes SET attempts = ? WHERE id = ? AND attempts < ?", attempts, otpId, attempts);
    }

    @Override
    public void deleteExpired(Tx tx, Instant before) {
        Sql.update(tx, "DELETE FROM otp_codes WHERE expires_at < ?", before);
        Sql.update(tx, "DELETE FROM otp_used_tokens WHERE expires_at < ?", before);
    }

    @Override
    public boolean useToken(Tx tx, String tokenId, String organizationId, Instant now, Instant expiresAt) {
        if (Sql.exists(tx, "SELECT 1 FROM otp_used_tokens WHERE id = ?", tokenId)) {
            return false;
        }
        Sql.update(
                tx,
                "INSERT INTO otp_used_tokens (id, organization_id, used_at, expires_at) VALUES (?, ?, ?, ?)",
                tokenId,
                organizationId,
                now,
                expiresAt);
        return true;
    }

    @Override
    public List<Member> usersWithContact(Tx tx, String organizationId, OtpType type, String contact) {
        String match = type == OtpType.OTP_TYPE_EMAIL ? "u.email_normalized = ?" : "u.phone_number = ?";
        String value = type == OtpType.OTP_TYPE_EMAIL ? contact.toLowerCase(Locale.ROOT) : contact;
        return Sql.list(
                tx,
                "SELECT u.organization_id, u.id FROM users u JOIN organizations o ON o.id = u.organization_id "
                        + "WHERE (o.id = ? OR o.parent_id = ?) AND " + match + " ORDER BY u.organization_id, u.id",
                rs -> new Member(rs.getString(1), rs.getString(2)),
                organizationId,
                organizationId,
                value);
    }
}
