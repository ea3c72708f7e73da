package dev.keyhaven.server.custody;

import java.util.List;

/**
 * A column of the database that holds sealed secrets: its table, the column naming the secret's organization (none
 * for the deployment's own keys, whose owner is fixed) and the sealed column. The list is what the start-up upgrade
 * walks to move secrets sealed before envelope encryption under their owner's data key; {@code SealedColumnTest} checks it
 * against every {@code *sealed*} column of the schema, so a new one cannot be forgotten.
 */
public record SealedColumn(String table, String ownerColumn, String column, SealPurpose purpose) {

    /** Every sealed column but the KEK's own check value. */
    public static final List<SealedColumn> ALL = List.of(
            new SealedColumn("wallets", "organization_id", "mnemonic_sealed", SealPurpose.WALLET_MNEMONIC),
            new SealedColumn("wallet_accounts", "organization_id", "key_sealed", SealPurpose.WALLET_ACCOUNT_KEY),
            new SealedColumn("private_keys", "organization_id", "key_sealed", SealPurpose.PRIVATE_KEY),
            new SealedColumn("import_targets", "organization_id", "key_sealed", SealPurpose.IMPORT_TARGET),
            new SealedColumn("otp_codes", "organization_id", "key_sealed", SealPurpose.OTP_TARGET),
            new SealedColumn(
                    "oauth2_credentials", "organization_id", "secret_sealed", SealPurpose.OAUTH2_CLIENT_SECRET),
            new SealedColumn("webhook_signing_keys", null, "key_sealed", SealPurpose.WEBHOOK_SIGNING_KEY),
            new SealedColumn("server_identity", null, "key_sealed", SealPurpose.SERVER_IDENTITY),
            // One row per deployment key: the bundle signers and the keys DeploymentKeys keeps; the purpose varies
            // by row, so the upgrade tries the row's candidates (LegacySeals.candidates).
            new SealedColumn("bundle_signer", null, "key_sealed", SealPurpose.BUNDLE_SIGNER));

    /** Whether the organization is a column of the row (else the owner is the deployment's own). */
    public boolean ownedByOrganization() {
        return ownerColumn != null;
    }
}
