package dev.keyhaven.server.tvc;

import dev.keyhaven.crypto.EcCurve;
import dev.keyhaven.crypto.VerifyingKey;
import dev.keyhaven.server.api.ApiException;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Optional;

/**
 * Operator public keys and their approval signatures. A key is hex of a P-256 point (33 or 65 bytes) or of a QuorumOS
 * operator key (130 bytes: encryption key ‖ signing key, the signing half is used). An approval is ECDSA-P256 with
 * SHA-256 over the 32 bytes of the manifest hash, hex of DER or of the raw 64-byte r ‖ s.
 */
final class OperatorKeys {
    private static final HexFormat HEX = HexFormat.of();

    private OperatorKeys() {}

    /** The key's signing point, or a 400 naming {@code field}. */
    static VerifyingKey parse(String hex, String field) {
        byte[] bytes;
        try {
            bytes = HEX.parseHex(hex.startsWith("0x") ? hex.substring(2) : hex);
        } catch (IllegalArgumentException e) {
            throw ApiException.badField(field, "must be hex");
        }
        if (bytes.length == 130) {
            bytes = Arrays.copyOfRange(bytes, 65, 130);
        }
        try {
            return VerifyingKey.ecdsaSha256(EcCurve.P256, bytes);
        } catch (IllegalArgumentException e) {
            throw ApiException.badField(
                    field, "is not a P-256 public key (33 or 65 bytes, or a 130-byte operator key)");
        }
    }

    /** Whether {@code signatureHex} is the operator's signature over the manifest hash. */
    static boolean approves(String operatorKey, String manifestHashHex, String signatureHex) {
        Optional<byte[]> signature = hex(signatureHex);
        if (signature.isEmpty()) {
            return false;
        }
        byte[] der =
                signature.get().length == 64 ? VerifyingKey.derFromRaw(EcCurve.P256, signature.get()) : signature.get();
        return parse(operatorKey, "publicKey").verify(HEX.parseHex(manifestHashHex), der);
    }

    private static Optional<byte[]> hex(String value) {
        try {
            return Optional.of(HEX.parseHex(value.startsWith("0x") ? value.substring(2) : value));
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }
}
