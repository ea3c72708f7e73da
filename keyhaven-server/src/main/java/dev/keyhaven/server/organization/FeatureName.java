package dev.keyhaven.server.organization;

import dev.keyhaven.server.api.WireEnum;

/**
 * Turnkey's organization features ({@code FEATURE_NAME_<constant>}) and what Keyhaven does with each. A feature
 * Keyhaven enforces is {@link Support#GATES}: its absence refuses the activities it covers. A feature whose effect
 * Keyhaven does not have is {@link Support#REFUSED}: setting it is an error rather than a record that would
 * suggest a protection (an origin restriction, a webhook) that is not there.
 */
public enum FeatureName implements WireEnum {
    /** The older name of {@link #EMAIL_RECOVERY}; set or removed, it acts on that feature. */
    ROOT_USER_EMAIL_RECOVERY(Support.GATES),
    /** Passkey origins: Keyhaven checks passkeys against its configured relying party and origins only. */
    WEBAUTHN_ORIGINS(Support.REFUSED),
    /** {@code email_auth}: credential bundles by email. */
    EMAIL_AUTH(Support.GATES),
    /** {@code init_user_email_recovery}. */
    EMAIL_RECOVERY(Support.GATES),
    /** Turnkey's legacy activity webhook; Keyhaven's webhooks are {@code create_webhook_endpoint}. */
    WEBHOOK(Support.REFUSED),
    /** OTPs by SMS ({@code init_otp} with {@code OTP_TYPE_SMS}, and the auth proxy's). */
    SMS_AUTH(Support.GATES),
    /** OTPs by email ({@code init_otp} with {@code OTP_TYPE_EMAIL}, and the auth proxy's). */
    OTP_EMAIL_AUTH(Support.GATES),
    /** The auth proxy is turned on and configured through its own activities, not as a feature. */
    AUTH_PROXY(Support.REFUSED),
    SOLANA_RENT_PREFUND_ENABLED(Support.REFUSED),
    SWAP_CONFIG(Support.REFUSED),
    EARN_CONFIG(Support.REFUSED);

    /** What setting the feature does on Keyhaven. */
    public enum Support {
        /** Enabled while present; the activities it covers are refused while absent. */
        GATES,
        /** Keyhaven does not have the feature: set_organization_feature refuses it. */
        REFUSED
    }

    private static final String PREFIX = "FEATURE_NAME_";

    private final Support support;

    FeatureName(Support support) {
        this.support = support;
    }

    public Support support() {
        return support;
    }

    /** The name the feature is stored and listed under: the current one for a deprecated alias. */
    public FeatureName canonical() {
        return this == ROOT_USER_EMAIL_RECOVERY ? EMAIL_RECOVERY : this;
    }

    @Override
    public String wireName() {
        return PREFIX + name();
    }
}
