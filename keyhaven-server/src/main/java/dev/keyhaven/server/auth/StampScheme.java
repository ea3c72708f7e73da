package dev.keyhaven.server.auth;

import dev.keyhaven.server.api.WireEnum;
import dev.keyhaven.server.user.SignInKeyType;

/** The signature schemes of {@code X-Stamp}, with the API-key credential type each requires. */
public enum StampScheme implements WireEnum {
    /** ECDSA P-256 over SHA-256 of the body, DER signature, compressed public key. */
    SIGNATURE_SCHEME_TK_API_P256("CREDENTIAL_TYPE_API_KEY_P256"),
    /** ECDSA secp256k1 over SHA-256 of the body, DER signature, compressed public key. */
    SIGNATURE_SCHEME_TK_API_SECP256K1("CREDENTIAL_TYPE_API_KEY_SECP256K1"),
    /** Pure Ed25519 over the body, raw 64-byte signature, raw 32-byte public key. */
    SIGNATURE_SCHEME_TK_API_ED25519("CREDENTIAL_TYPE_API_KEY_ED25519"),
    /** ECDSA secp256k1 over the EIP-191 digest of the body (Ethereum wallets), DER signature. */
    SIGNATURE_SCHEME_TK_API_SECP256K1_EIP191("CREDENTIAL_TYPE_API_KEY_SECP256K1");

    private final String apiKeyCredentialType;

    StampScheme(String apiKeyCredentialType) {
        this.apiKeyCredentialType = apiKeyCredentialType;
    }

    @Override
    public String wireName() {
        return name();
    }

    /**
     * Whether a key of {@code credentialType} stamps with this scheme: its own API key type, and for P-256 also the
     * email-recovery credential (a P-256 key the user holds for recover_user only) and the keys the older sign-ins
     * issue ({@link SignInKeyType}).
     */
    public boolean accepts(String credentialType) {
        return apiKeyCredentialType.equals(credentialType)
                || (this == SIGNATURE_SCHEME_TK_API_P256
                        && (dev.keyhaven.server.api.Caller.RECOVERY_CREDENTIAL_TYPE.equals(credentialType)
                                || SignInKeyType.of(credentialType).isPresent()));
    }

    /** The credential type an API key must have to be used with this scheme. */
    public String apiKeyCredentialType() {
        return apiKeyCredentialType;
    }
}
