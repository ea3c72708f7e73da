package dev.keyhaven.server.activity;

/**
 * One app proof ({@code v1AppProof}): {@code proofPayload} is the JSON text that was signed, byte for byte;
 * {@code signature} is hex of the raw r ‖ s over its SHA-256, by the signing half of {@code publicKey}.
 */
public record AppProof(String scheme, String publicKey, String proofPayload, String signature) {
    /** The only scheme: a P-256 key created when the server started. */
    public static final String EPHEMERAL_KEY_P256 = "SIGNATURE_SCHEME_EPHEMERAL_KEY_P256";
}
