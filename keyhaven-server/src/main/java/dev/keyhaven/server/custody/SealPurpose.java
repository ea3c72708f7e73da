package dev.keyhaven.server.custody;

/**
 * What a sealed secret is. The purpose is part of the additional authenticated data, so a wallet's mnemonic cannot
 * be opened as if it were an account key, even by code that mixes up the rows.
 */
public enum SealPurpose {
    MASTER_KEY_CHECK("master-key-check"),
    WALLET_MNEMONIC("wallet-mnemonic"),
    WALLET_ACCOUNT_KEY("wallet-account-key"),
    PRIVATE_KEY("private-key"),
    BUNDLE_SIGNER("bundle-signer"),
    IMPORT_TARGET("import-target"),
    SERVER_IDENTITY("server-identity"),
    WEBHOOK_SIGNING_KEY("webhook-signing-key"),
    OTP_TARGET("otp-target"),
    OAUTH2_ENCRYPTION_KEY("oauth2-encryption-key"),
    OAUTH2_CLIENT_SECRET("oauth2-client-secret"),
    OAUTH2_TOKEN_SIGNER("oauth2-token-signer");

    private final String label;

    SealPurpose(String label) {
        this.label = label;
    }

    String label() {
        return label;
    }
}
