package dev.keyhaven.server.user;

import java.util.Arrays;
import java.util.Optional;

/**
 * The API keys the older credential-bundle sign-ins issue ({@code session.BundleKeys}): expiring P-256 keys listed
 * with a credential type of their own, as Turnkey's {@code get_api_keys} shows them, so that
 * {@code invalidateExisting} can end the user's earlier keys of one kind and leave the others (and sessions) alone.
 * They stamp like any P-256 API key.
 */
public enum SignInKeyType {
    /** {@code email_auth}. */
    EMAIL_AUTH("CREDENTIAL_TYPE_EMAIL_AUTH_KEY_P256", "Email Auth"),
    /** {@code otp_auth}. */
    OTP_AUTH("CREDENTIAL_TYPE_OTP_AUTH_KEY_P256", "OTP Auth"),
    /** {@code oauth}. */
    OAUTH("CREDENTIAL_TYPE_OAUTH_KEY_P256", "Oauth");

    private final String credentialType;
    private final String defaultNamePrefix;

    SignInKeyType(String credentialType, String defaultNamePrefix) {
        this.credentialType = credentialType;
        this.defaultNamePrefix = defaultNamePrefix;
    }

    /** The {@code CREDENTIAL_TYPE_*} the key is stored and listed with. */
    public String credentialType() {
        return credentialType;
    }

    /** Turnkey's default key name is this, a dash and the time ({@code Email Auth - <timestamp>}). */
    public String defaultNamePrefix() {
        return defaultNamePrefix;
    }

    /** The kind whose credential type {@code credentialType} is, if any. */
    public static Optional<SignInKeyType> of(String credentialType) {
        return Arrays.stream(values())
                .filter(k -> k.credentialType.equals(credentialType))
                .findFirst();
    }
}
