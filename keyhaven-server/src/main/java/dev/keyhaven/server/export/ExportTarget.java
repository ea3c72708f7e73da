package dev.keyhaven.server.export;

import dev.keyhaven.server.api.Params;
import dev.keyhaven.server.custody.KeyTransfer;

/** What every export names: the resource ({@code walletId}, {@code address}, {@code privateKeyId}) and the target. */
record ExportTarget(String resource, byte[] targetPublicKey) {

    static ExportTarget read(Params p, String resourceField) {
        String resource = p.requiredString(resourceField);
        return new ExportTarget(resource,
                KeyTransfer.targetKey(p.requiredString("targetPublicKey"), p.pathOf("targetPublicKey")));
    }
}
