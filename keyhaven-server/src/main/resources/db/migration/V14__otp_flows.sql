-- Keyhaven schema, part 14: which sign-in an OTP belongs to (otp.OtpFlow), so that a code sent by init_otp_auth is
-- checked only by otp_auth and one sent by init_otp (or the auth proxy) only by verify_otp and the proxy's verify.
-- Numbered 14: part 13 is taken on another branch (organization features and verified contacts).
ALTER TABLE otp_codes ADD COLUMN flow TEXT NOT NULL DEFAULT 'VERIFICATION_TOKEN';
