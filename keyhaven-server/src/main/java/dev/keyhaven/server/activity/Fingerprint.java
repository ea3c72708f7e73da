package dev.keyhaven.server.activity;

import dev.keyhaven.crypto.Digests;
import java.util.HexFormat;

/**
 * An activity's fingerprint: SHA-256 of the exact request body, in lowercase hex. Two submissions share a
 * fingerprint exactly when their bodies are byte-identical, which is what makes resubmission idempotent and lets a
 * second user approve by stamping the same body.
 */
public final class Fingerprint {
    private Fingerprint() {}

    public static String of(byte[] rawBody) {
        return HexFormat.of().formatHex(Digests.sha256(rawBody));
    }
}
