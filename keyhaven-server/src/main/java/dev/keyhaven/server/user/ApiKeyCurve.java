package dev.keyhaven.server.user;

import dev.keyhaven.server.api.WireEnum;

/** The curve of an API key, with the credential type it becomes. */
public enum ApiKeyCurve implements WireEnum {
    API_KEY_CURVE_P256("CREDENTIAL_TYPE_API_KEY_P256"),
    API_KEY_CURVE_SECP256K1("CREDENTIAL_TYPE_API_KEY_SECP256K1"),
    API_KEY_CURVE_ED25519("CREDENTIAL_TYPE_API_KEY_ED25519");

    private final String credentialType;

    ApiKeyCurve(String credentialType) {
        this.credentialType = credentialType;
    }

    @Override
    public String wireName() {
        return name();
    }

    public String credentialType() {
        return credentialType;
    }
}
