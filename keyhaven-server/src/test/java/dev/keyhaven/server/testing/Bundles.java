package dev.keyhaven.server.testing;

import static org.assertj.core.api.Assertions.assertThat;

import dev.keyhaven.crypto.EcCurve;
import dev.keyhaven.crypto.KeyCurve;
import dev.keyhaven.crypto.SecretBytes;
import dev.keyhaven.crypto.SecretKeyAccess;
import dev.keyhaven.crypto.VerifyingKey;
import dev.keyhaven.crypto.bundle.TurnkeyHpke;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;

/**
 * The client side of Turnkey's encrypted bundles, as {@code @turnkey/crypto} does it: a target key pair, opening a
 * signed export bundle after checking its signer and signature, and encrypting to a signed import target.
 */
public final class Bundles {
    private static final HexFormat HEX = HexFormat.of();
    private static final ObjectMapper JSON = JsonMapper.builder().build();
    private static final SecureRandom RANDOM = new SecureRandom();

    private Bundles() {}

    /** A client's P-256 target key pair; the public key in both encodings (hex). */
    public record TargetKey(byte[] privateKey, String compressed, String uncompressed) {
        public static TargetKey generate() {
            try (SecretBytes key = KeyCurve.P256.generatePrivateKey(RANDOM)) {
                byte[] publicKey = KeyCurve.P256.publicKey(key);
                return new TargetKey(
                        key.apply(SecretKeyAccess.get(), byte[]::clone),
                        HEX.formatHex(publicKey),
                        HEX.formatHex(EcCurve.P256.decompress(publicKey)));
            }
        }

        /** Opens a message encrypted to this key. */
        public byte[] open(TurnkeyHpke.Encrypted encrypted) {
            try (SecretBytes key = SecretBytes.copyOf(privateKey);
                    SecretBytes plain = TurnkeyHpke.open(key, encrypted)) {
                return plain.apply(SecretKeyAccess.get(), byte[]::clone);
            }
        }
    }

    /** The signer key the server publishes, from its discovery endpoint. */
    public static String discoveredSigner(String baseUrl) {
        return discoveredKey(baseUrl, "/public/v1/discovery/signer");
    }

    /** A public key the server publishes at {@code path}. */
    public static String discoveredKey(String baseUrl, String path) {
        try (HttpClient http = HttpClient.newHttpClient()) {
            HttpResponse<String> response = http.send(
                    HttpRequest.newBuilder(URI.create(baseUrl + path)).GET().build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(response.statusCode()).isEqualTo(200);
            return JSON.readTree(response.body()).path("publicKey").asString();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** The signed inner data of a bundle, after checking it is signed by {@code signer} (as decryptExportBundle). */
    public static JsonNode verifiedData(String bundle, String signer) {
        JsonNode outer = JSON.readTree(bundle);
        assertThat(outer.path("version").asString()).isEqualTo("v1.0.0");
        assertThat(outer.path("enclaveQuorumPublic").asString()).isEqualTo(signer);
        byte[] data = HEX.parseHex(outer.path("data").asString());
        assertThat(VerifyingKey.ecdsaSha256(EcCurve.P256, HEX.parseHex(signer))
                        .verify(data, HEX.parseHex(outer.path("dataSignature").asString())))
                .as("dataSignature over data")
                .isTrue();
        return JSON.readTree(new String(data, StandardCharsets.UTF_8));
    }

    /** Opens an export bundle of {@code organizationId} with {@code target}. */
    public static byte[] openExport(String bundle, String signer, String organizationId, TargetKey target) {
        JsonNode inner = verifiedData(bundle, signer);
        assertThat(inner.path("organizationId").asString()).isEqualTo(organizationId);
        return target.open(new TurnkeyHpke.Encrypted(
                HEX.parseHex(inner.path("encappedPublic").asString()),
                HEX.parseHex(inner.path("ciphertext").asString())));
    }

    /**
     * What {@code encryptOtpCodeToBundle} sends: checks the target bundle's signature by {@code signer}, then
     * encrypts {@code {"otp_code","public_key"}} to its {@code targetPublic}.
     */
    public static String encryptOtpCode(String targetBundle, String signer, String code, String publicKey) {
        JsonNode inner = verifiedData(targetBundle, signer);
        Map<String, String> plain = new LinkedHashMap<>();
        plain.put("otp_code", code);
        plain.put("public_key", publicKey);
        return encryptTo(
                inner.path("targetPublic").asString(),
                JSON.writeValueAsString(plain).getBytes(StandardCharsets.UTF_8));
    }

    private static String encryptTo(String targetPublic, byte[] plaintext) {
        try (SecretBytes plain = SecretBytes.copyOf(plaintext)) {
            TurnkeyHpke.Encrypted encrypted = TurnkeyHpke.seal(HEX.parseHex(targetPublic), plain);
            Map<String, String> out = new LinkedHashMap<>();
            out.put("encappedPublic", HEX.formatHex(encrypted.encappedPublic()));
            out.put("ciphertext", HEX.formatHex(encrypted.ciphertext()));
            return JSON.writeValueAsString(out);
        }
    }

    /** What encryptWalletToBundle / encryptPrivateKeyToBundle send: {"encappedPublic","ciphertext"} to the target. */
    public static String encryptToImportBundle(
            String importBundle, String signer, String organizationId, String userId, byte[] plaintext) {
        JsonNode inner = verifiedData(importBundle, signer);
        assertThat(inner.path("organizationId").asString()).isEqualTo(organizationId);
        assertThat(inner.path("userId").asString()).isEqualTo(userId);
        return encryptTo(inner.path("targetPublic").asString(), plaintext);
    }
}
