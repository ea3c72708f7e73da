package dev.keyhaven.server.user;

import dev.keyhaven.crypto.EcCurve;
import dev.keyhaven.crypto.VerifyingKey;
import dev.keyhaven.server.api.ApiException;
import dev.keyhaven.server.api.Params;
import java.util.HexFormat;
import java.util.Optional;

/**
 * A validated {@code v1ApiKeyParamsV2}: name, public key (already in canonical form) and curve, and the optional
 * lifetime that makes it an expiring key; and its credential type, the curve's unless a sign-in issues it
 * ({@link SignInKeyType}).
 */
public record NewApiKey(
        String name, String publicKey, ApiKeyCurve curve, Optional<Long> expirationSeconds, String credentialType) {

    /** A key the user brings: of its curve's credential type. */
    public NewApiKey(String name, String publicKey, ApiKeyCurve curve, Optional<Long> expirationSeconds) {
        this(name, publicKey, curve, expirationSeconds, curve.credentialType());
    }

    /** The longest lifetime an expiring key may ask for (ten years). */
    static final long MAX_EXPIRATION_SECONDS = 10L * 366 * 24 * 3600;

    public static NewApiKey read(Params p) {
        return read(p, p.requiredEnum("curveType", ApiKeyCurve.class));
    }

    /**
     * Reads {@code apiApiKeyParams}, the older key parameters without {@code curveType}: those keys are P-256, the
     * curve of Turnkey's API key stamper.
     */
    public static NewApiKey readP256(Params p) {
        return read(p, ApiKeyCurve.API_KEY_CURVE_P256);
    }

    private static NewApiKey read(Params p, ApiKeyCurve curve) {
        String name = p.requiredString("apiKeyName");
        String publicKeyHex = p.requiredString("publicKey");
        String canonical;
        try {
            canonical = canonicalPublicKey(curve, publicKeyHex);
        } catch (IllegalArgumentException e) {
            throw ApiException.badField(
                    p.pathOf("publicKey"),
                    "is not a valid " + curve.wireName()
                            + " public key (hex of a compressed point"
                            + (curve == ApiKeyCurve.API_KEY_CURVE_ED25519 ? " or 32-byte Ed25519 key)" : ")"));
        }
        Optional<Long> expiration;
        try {
            expiration = p.optionalUint64("expirationSeconds");
        } catch (ApiException e) {
            throw ApiException.badField(p.pathOf("expirationSeconds"), "is an invalid api key expiration");
        }
        if (expiration.isPresent() && (expiration.get() <= 0 || expiration.get() > MAX_EXPIRATION_SECONDS)) {
            throw ApiException.badField(
                    p.pathOf("expirationSeconds"),
                    "is an invalid api key expiration (1 to " + MAX_EXPIRATION_SECONDS + " seconds)");
        }
        return new NewApiKey(name, canonical, curve, expiration);
    }

    /**
     * A key given outside a request (the {@code init} command).
     *
     * @throws IllegalArgumentException when the public key is not valid for the curve
     */
    public static NewApiKey of(String name, String publicKeyHex, ApiKeyCurve curve) {
        return new NewApiKey(name, canonicalPublicKey(curve, publicKeyHex), curve, Optional.empty());
    }

    /** Lowercase hex; ECDSA keys compressed, so one key has exactly one stored form. */
    static String canonicalPublicKey(ApiKeyCurve curve, String hex) {
        byte[] bytes = HexFormat.of().parseHex(hex);
        return switch (curve) {
            case API_KEY_CURVE_P256 -> HexFormat.of().formatHex(EcCurve.P256.compress(bytes));
            case API_KEY_CURVE_SECP256K1 -> HexFormat.of().formatHex(EcCurve.SECP256K1.compress(bytes));
            case API_KEY_CURVE_ED25519 -> {
                VerifyingKey.ed25519(bytes);
                yield HexFormat.of().formatHex(bytes);
            }
        };
    }
}
