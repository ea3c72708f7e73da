package dev.keyhaven.server.custody;

import dev.keyhaven.crypto.SecretBytes;
import dev.keyhaven.server.tx.Transactor;
import dev.keyhaven.server.tx.Tx;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The start-up upgrade to envelope encryption: every secret still sealed directly under the KEK (the format before
 * it) is opened and sealed again under its owner's data key, a batch per transaction. Each row is replaced only if it
 * did not change meanwhile, so several servers starting together do no harm. Afterwards the KEK opens nothing but
 * data keys, which is what lets {@code kek rotate} leave the old KEK opening nothing at all.
 */
public final class LegacySeals {
    private static final Logger LOG = LoggerFactory.getLogger(LegacySeals.class);
    private static final int BATCH = 200;

    private LegacySeals() {}

    /** One binding a secret may have been sealed with: the additional authenticated data. */
    private record Binding(SealPurpose purpose, String organizationId, String resourceId) {}

    /** Moves every secret sealed before envelope encryption under its owner's data key; answers how many it moved. */
    public static long upgrade(Transactor transactor, DataKeyRepository repository, KeySealer sealer) {
        long moved = 0;
        for (SealedColumn column : SealedColumn.ALL) {
            int batch;
            do {
                batch = transactor.write(tx -> {
                    List<DataKeyRepository.SealedRow> rows = repository.legacySealed(tx, column, BATCH);
                    for (DataKeyRepository.SealedRow row : rows) {
                        reseal(tx, repository, sealer, column, row);
                    }
                    return rows.size();
                });
                moved += batch;
            } while (batch == BATCH);
        }
        if (moved > 0) {
            LOG.info(
                    "moved {} secrets sealed under the KEK under their owners' data keys (envelope encryption)", moved);
        }
        return moved;
    }

    /** How many secrets are still sealed directly under the KEK. */
    public static long remaining(Tx tx, DataKeyRepository repository) {
        long count = 0;
        for (SealedColumn column : SealedColumn.ALL) {
            count += repository.countLegacySealed(tx, column);
        }
        return count;
    }

    private static void reseal(
            Tx tx,
            DataKeyRepository repository,
            KeySealer sealer,
            SealedColumn column,
            DataKeyRepository.SealedRow row) {
        byte[] bytes = row.sealed().bytes();
        for (Binding binding : candidates(column, row)) {
            SecretBytes secret;
            try {
                secret = sealer.openLegacy(binding.purpose(), binding.organizationId(), binding.resourceId(), bytes);
            } catch (CustodyException notThisBinding) {
                continue;
            }
            try (secret) {
                SealedSecret resealed =
                        sealer.seal(tx, binding.purpose(), binding.organizationId(), binding.resourceId(), secret);
                repository.replaceSealed(tx, column, row.id(), row.sealed(), resealed);
                return;
            }
        }
        throw new CustodyException("the sealed value of " + column.table() + " row " + row.id()
                + " does not open with the KEK under any binding it could have; refusing to start");
    }

    /**
     * The bindings a row's secret was sealed with before envelope encryption: an organization's secret is bound to
     * its organization and row; the deployment's own keys to the fixed scopes they had then (written out here, as the
     * historical record they are).
     */
    private static List<Binding> candidates(SealedColumn column, DataKeyRepository.SealedRow row) {
        if (column.ownedByOrganization()) {
            return List.of(new Binding(column.purpose(), row.ownerId(), row.id()));
        }
        return switch (column.table()) {
            case "webhook_signing_keys" ->
                List.of(new Binding(SealPurpose.WEBHOOK_SIGNING_KEY, "keyhaven-webhooks", row.id()));
            case "server_identity" ->
                List.of(new Binding(SealPurpose.SERVER_IDENTITY, "server-identity", "server-identity"));
            case "bundle_signer" ->
                switch (row.id()) {
                    case "signer" -> List.of(new Binding(SealPurpose.BUNDLE_SIGNER, "bundle-signer", "bundle-signer"));
                    case "otp-signer", "session-signer" ->
                        List.of(new Binding(SealPurpose.BUNDLE_SIGNER, row.id(), row.id()));
                    case "oauth2-token-signer" ->
                        List.of(new Binding(SealPurpose.OAUTH2_TOKEN_SIGNER, row.id(), row.id()));
                    case "oauth2-encryption-key" ->
                        List.of(new Binding(SealPurpose.OAUTH2_ENCRYPTION_KEY, row.id(), row.id()));
                    default -> List.of();
                };
            default -> List.of();
        };
    }
}
