package dev.keyhaven.server.otp;

/**
 * Which sign-in an OTP belongs to, fixed when its code is sent. Turnkey's guidance is never to mix a legacy init with
 * the newer verify and login in one attempt, so a code is checked only by the flow that sent it.
 */
public enum OtpFlow {
    /** {@code init_otp} and the auth proxy's inits: checked by {@code verify_otp} (or the proxy), for a token. */
    VERIFICATION_TOKEN("init_otp", "verify_otp"),
    /** {@code init_otp_auth}: checked by {@code otp_auth} only, for a credential bundle. */
    CREDENTIAL_BUNDLE("init_otp_auth", "otp_auth"),
    /**
     * {@code init_otp} V1 and V2, whose clients get no encryption target: checked by {@code verify_otp} V1 with the
     * code in plain text ({@code otpCode}) only, for a token.
     */
    PLAIN_CODE_TOKEN("init_otp V1/V2", "verify_otp with otpCode");

    private final String sentBy;
    private final String checkedBy;

    OtpFlow(String sentBy, String checkedBy) {
        this.sentBy = sentBy;
        this.checkedBy = checkedBy;
    }

    /** The operation that sends this flow's codes. */
    public String sentBy() {
        return sentBy;
    }

    /** The operation that checks this flow's codes. */
    public String checkedBy() {
        return checkedBy;
    }
}
