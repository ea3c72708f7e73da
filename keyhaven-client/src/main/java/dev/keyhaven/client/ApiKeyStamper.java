package dev.keyhaven.client;

import dev.keyhaven.crypto.EcCurve;
import dev.keyhaven.crypto.SecretBytes;
import dev.keyhaven.crypto.SigningKey;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.HexFormat;

/**
 * Stamps requests with an API key: {@code X-Stamp} = base64url (no padding) of
 * {@code {"publicKey","scheme","signature"}}, the signature covering the exact body bytes. P-256 and secp256k1 sign
 * ECDSA over SHA-256 with a DER signature; Ed25519 signs the body itself.
 */
public final class ApiKeyStamper implements Stamper, AutoCloseable {
    private static final HexFormat HEX = HexFormat.of();

    private final Curve curve;
    private final SigningKey key;
    private final String publicKey;

    private ApiKeyStamper(Curve curve, SigningKey key) {
        this.curve = curve;
        this.key = key;
        this.publicKey = HEX.formatHex(key.publicKey());
    }

    /** The API key curves, with their stamp scheme and {@code curveType} wire names. */
    public enum Curve {
        P256("SIGNATURE_SCHEME_TK_API_P256", "API_KEY_CURVE_P256"),
        SECP256K1("SIGNATURE_SCHEME_TK_API_SECP256K1", "API_KEY_CURVE_SECP256K1"),
        ED25519("SIGNATURE_SCHEME_TK_API_ED25519", "API_KEY_CURVE_ED25519");

        private final String scheme;
        private final String curveType;

        Curve(String scheme, String curveType) {
            this.scheme = scheme;
            this.curveType = curveType;
        }

        public String scheme() {
            return scheme;
        }

        /** The {@code curveType} to register the key with. */
        public String curveType() {
            return curveType;
        }
    }

    /** A stamper for the private key given in hex (32 bytes). */
    public static ApiKeyStamper fromPrivateKey(Curve curve, String privateKeyHex) {
        SecretBytes secret = SecretBytes.adopt(HEX.parseHex(privateKeyHex.trim()));
        return new ApiKeyStamper(
                curve,
                switch (curve) {
                    case P256 -> SigningKey.ecdsa(EcCurve.P256, secret);
                    case SECP256K1 -> SigningKey.ecdsa(EcCurve.SECP256K1, secret);
                    case ED25519 -> SigningKey.ed25519(secret);
                });
    }

    /** A stamper with a fresh random key. */
    public static ApiKeyStamper generate(Curve curve, SecureRandom random) {
        return new ApiKeyStamper(
                curve,
                switch (curve) {
                    case P256 -> SigningKey.generateEcdsa(EcCurve.P256, random);
                    case SECP256K1 -> SigningKey.generateEcdsa(EcCurve.SECP256K1, random);
                    case ED25519 -> SigningKey.generateEd25519(random);
                });
    }

    /** The public key in hex as registered (compressed for ECDSA curves). */
    public String publicKey() {
        return publicKey;
    }

    public Curve curve() {
        return curve;
    }

    @Override
    public Stamp stamp(byte[] body) {
        String signature = HEX.formatHex(key.sign(body));
        String json = "{\"publicKey\":\"" + publicKey + "\",\"scheme\":\"" + curve.scheme() + "\",\"signature\":\""
                + signature + "\"}";
        return new Stamp(
                "X-Stamp",
                Base64.getUrlEncoder().withoutPadding().encodeToString(json.getBytes(StandardCharsets.UTF_8)));
    }

    @Override
    public void close() {
        key.close();
    }

    @Override
    public String toString() {
        return "ApiKeyStamper[" + curve + ", " + publicKey + "]";
    }
}
