package dev.keyhaven.server.export;

import dev.keyhaven.server.api.Params;
import dev.keyhaven.server.custody.KeyTransfer;

/**
 * What every export names: the resource ({@code walletId}, {@code address}, {@code privateKeyId}) and the target, as
 * given ({@code activity.params.target_public_key}) and decoded.
 */
record ExportTarget(String resource, String targetPublicKeyHex, byte[] targetPublicKey) {

    static ExportTarget read(Params p, String resourceField) {
        String resource = p.requiredString(resourceField);
        String target = p.requiredString("targetPublicKey");
        return new ExportTarget(resource, target, KeyTransfer.targetKey(target, p.pathOf("targetPublicKey")));
    }
}
