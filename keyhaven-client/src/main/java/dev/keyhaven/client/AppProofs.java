package dev.keyhaven.client;

import dev.keyhaven.crypto.EcCurve;
import dev.keyhaven.crypto.VerifyingKey;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;

/**
 * Verification of Keyhaven's app proofs, the whole chain: an app proof is signed by the server's ephemeral key; the
 * boot proof of that key is signed by Keyhaven's long-term key; that key is the one you pinned (printed by
 * {@code serve}, and in every boot proof's {@code identityPublicKey} — pin it from a channel you trust, not from the
 * proof you are checking).
 *
 * <p>{@link #verifyAppProofSignature} checks what {@code @turnkey/crypto}'s function of the same name checks.
 */
public final class AppProofs {
    /** The only scheme. */
    public static final String SCHEME = "SIGNATURE_SCHEME_EPHEMERAL_KEY_P256";

    private static final String STATEMENT_TYPE = "KEYHAVEN_BOOT_STATEMENT_V1";
    private static final HexFormat HEX = HexFormat.of();

    private AppProofs() {}

    /** {@code v1AppProof}. */
    public record AppProof(String scheme, String publicKey, String proofPayload, String signature) {
        static AppProof of(JsonNode node) {
            return new AppProof(
                    node.path("scheme").asString(),
                    node.path("publicKey").asString(),
                    node.path("proofPayload").asString(),
                    node.path("signature").asString());
        }
    }

    /**
     * A boot proof: the ephemeral public key, the signed statement (JSON text: {@code type}, {@code ephemeralPublicKey},
     * {@code startedAtMs}, {@code buildVersion}, {@code identityPublicKey}), the long-term key and its signature.
     */
    public record BootProof(
            String ephemeralPublicKeyHex, String bootStatement, String identityPublicKey, String signature) {
        static BootProof of(JsonNode node) {
            return new BootProof(
                    node.path("ephemeralPublicKeyHex").asString(),
                    node.path("bootStatement").asString(),
                    node.path("identityPublicKey").asString(),
                    node.path("signature").asString());
        }
    }

    /** A proof that does not verify; the message says which check failed. */
    public static final class VerificationException extends RuntimeException {
        VerificationException(String message) {
            super(message);
        }
    }

    /** The proofs of an activity as the API returned it ({@code activity.appProofs}; empty when it has none). */
    public static List<AppProof> of(Activity activity) {
        return list(activity.raw().path("appProofs"));
    }

    static List<AppProof> list(JsonNode array) {
        List<AppProof> proofs = new ArrayList<>();
        array.forEach(p -> proofs.add(AppProof.of(p)));
        return proofs;
    }

    /**
     * Checks the proof's own signature: the scheme, a 130-byte public key whose last 65 bytes are an uncompressed
     * P-256 point, and a 64-byte r ‖ s signature over SHA-256 of the UTF-8 payload.
     */
    public static void verifyAppProofSignature(AppProof proof) {
        if (!SCHEME.equals(proof.scheme())) {
            throw new VerificationException("unsupported signature scheme " + proof.scheme());
        }
        byte[] publicKey = hex(proof.publicKey(), "public key");
        if (publicKey.length != 130) {
            throw new VerificationException("expected a 130-byte public key, got " + publicKey.length + " bytes");
        }
        byte[] signingKey = Arrays.copyOfRange(publicKey, 65, 130);
        if (!verifyRaw(signingKey, proof.proofPayload(), hex(proof.signature(), "signature"))) {
            throw new VerificationException("the app proof's signature does not verify");
        }
    }

    /** Checks that {@code boot} is signed by {@code pinnedIdentityKey} (hex, compressed or uncompressed P-256). */
    public static void verifyBootProof(BootProof boot, String pinnedIdentityKey) {
        JsonNode statement;
        try {
            statement = new ObjectMapper().readTree(boot.bootStatement());
        } catch (JacksonException e) {
            throw new VerificationException("the boot statement is not JSON");
        }
        if (!STATEMENT_TYPE.equals(statement.path("type").asString())) {
            throw new VerificationException("the boot statement is not a " + STATEMENT_TYPE);
        }
        byte[] pinned = EcCurve.P256.decompress(hex(pinnedIdentityKey, "pinned key"));
        if (!verifyRaw(pinned, boot.bootStatement(), hex(boot.signature(), "boot proof signature"))) {
            throw new VerificationException("the boot proof is not signed by the pinned long-term key");
        }
        if (!sameKey(statement.path("ephemeralPublicKey").asString(), boot.ephemeralPublicKeyHex())) {
            throw new VerificationException("the boot statement names another ephemeral key");
        }
    }

    /**
     * The whole chain: the app proof's signature, its key is the boot proof's ephemeral key, and the boot proof is
     * signed by the pinned long-term key.
     */
    public static void verify(AppProof proof, BootProof boot, String pinnedIdentityKey) {
        verifyAppProofSignature(proof);
        verifyBootProof(boot, pinnedIdentityKey);
        if (!sameKey(proof.publicKey(), boot.ephemeralPublicKeyHex())) {
            throw new VerificationException("the app proof was signed by another ephemeral key than the boot proof's");
        }
    }

    private static boolean sameKey(String a, String b) {
        return a.toLowerCase(Locale.ROOT).equals(b.toLowerCase(Locale.ROOT));
    }

    private static boolean verifyRaw(byte[] point, String message, byte[] rawSignature) {
        if (rawSignature.length != 64) {
            throw new VerificationException(
                    "expected a 64-byte r ‖ s signature, got " + rawSignature.length + " bytes");
        }
        VerifyingKey key;
        try {
            key = VerifyingKey.ecdsaSha256(EcCurve.P256, point);
        } catch (IllegalArgumentException e) {
            throw new VerificationException("the signing key is not a P-256 point");
        }
        return key.verify(
                message.getBytes(StandardCharsets.UTF_8), VerifyingKey.derFromRaw(EcCurve.P256, rawSignature));
    }

    private static byte[] hex(String value, String what) {
        try {
            return HEX.parseHex(value);
        } catch (IllegalArgumentException e) {
            throw new VerificationException("the " + what + " is not hex");
        }
    }
}
