package dev.keyhaven.server.auth;

import dev.keyhaven.crypto.EcCurve;
import dev.keyhaven.crypto.VerifyingKey;
import dev.keyhaven.server.api.ApiException;
import dev.keyhaven.server.api.Caller;
import dev.keyhaven.server.api.ErrorCode;
import dev.keyhaven.server.api.WireEnum;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.Iterator;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;

/**
 * Verifies {@code X-Stamp}: base64url of a JSON object {@code {publicKey, scheme, signature}} whose signature covers
 * the exact request body. Decoded public keys are cached: decoding a point costs as much as half a verification, and
 * BouncyCastle keeps its precomputed multiples on the decoded point.
 */
public final class ApiKeyStampVerifier {
    private static final HexFormat HEX = HexFormat.of();

    private final ObjectMapper json;
    private final int cacheCapacity;
    private final Map<String, DecodedKey> cache = new ConcurrentHashMap<>();

    public ApiKeyStampVerifier(ObjectMapper json, int cacheCapacity) {
        this.json = json;
        this.cacheCapacity = cacheCapacity;
    }

    /**
     * Verifies {@code headerValue} over {@code body}.
     *
     * @throws ApiException (401) when the stamp is malformed or its signature does not verify
     */
    public VerifiedStamp verify(String headerValue, byte[] body) {
        JsonNode stamp = StampJson.decode(json, headerValue, false, ApiKeyStampVerifier::malformed);
        String publicKey = StampJson.member(stamp, "publicKey", ApiKeyStampVerifier::malformed);
        String schemeName = StampJson.member(stamp, "scheme", ApiKeyStampVerifier::malformed);
        String signatureHex = StampJson.member(stamp, "signature", ApiKeyStampVerifier::malformed);
        StampScheme scheme = WireEnum.fromWire(StampScheme.class, schemeName)
                .orElseThrow(() -> malformed("unsupported signature scheme"));
        return signed(scheme, publicKey, signatureHex, body);
    }

    /**
     * Verifies a signature of {@code scheme} by {@code publicKey} (hex) over {@code body}: the check of every stamp
     * signed by a key the caller holds ({@code X-Stamp}, and the key of {@code X-Stamp-Attested}).
     *
     * @throws ApiException (401) when the key or signature is malformed or the signature does not verify
     */
    public VerifiedStamp signed(StampScheme scheme, String publicKey, String signatureHex, byte[] body) {
        byte[] signature;
        try {
            signature = HEX.parseHex(signatureHex);
        } catch (IllegalArgumentException e) {
            throw malformed("signature is not hex");
        }
        DecodedKey key = decodedKey(scheme, publicKey);
        if (!key.verifier().verify(body, signature)) {
            throw new ApiException(ErrorCode.SIGNATURE_INVALID, "could not verify api key signature");
        }
        return VerifiedStamp.apiKey(
                scheme,
                key.canonical(),
                new Caller.StampRecord(
                        new String(body, StandardCharsets.UTF_8),
                        publicKey,
                        signatureHex.toLowerCase(Locale.ROOT),
                        scheme.wireName()));
    }

    /**
     * The canonical storage form of an API public key: lowercase hex, compressed for ECDSA curves.
     *
     * @throws IllegalArgumentException when the key is not a valid key of the scheme's curve
     */
    public static String canonicalPublicKey(StampScheme scheme, String publicKeyHex) {
        return decode(scheme, publicKeyHex).canonical();
    }

    private DecodedKey decodedKey(StampScheme scheme, String publicKey) {
        String cacheKey = scheme.ordinal() + ":" + publicKey;
        DecodedKey cached = cache.get(cacheKey);
        if (cached != null) {
            return cached;
        }
        DecodedKey decoded;
        try {
            decoded = decode(scheme, publicKey);
        } catch (IllegalArgumentException e) {
            throw malformed("public key is not a valid " + scheme.wireName() + " key");
        }
        if (cache.size() >= cacheCapacity) {
            evictOne();
        }
        cache.put(cacheKey, decoded);
        return decoded;
    }

    private void evictOne() {
        Iterator<String> keys = cache.keySet().iterator();
        if (keys.hasNext()) {
            keys.next();
            keys.remove();
        }
    }

    private static DecodedKey decode(StampScheme scheme, String publicKeyHex) {
        byte[] bytes = HEX.parseHex(publicKeyHex);
        return switch (scheme) {
            case SIGNATURE_SCHEME_TK_API_P256 ->
                ecdsa(EcCurve.P256, bytes, VerifyingKey.ecdsaSha256(EcCurve.P256, bytes));
            case SIGNATURE_SCHEME_TK_API_SECP256K1 ->
                ecdsa(EcCurve.SECP256K1, bytes, VerifyingKey.ecdsaSha256(EcCurve.SECP256K1, bytes));
            case SIGNATURE_SCHEME_TK_API_SECP256K1_EIP191 ->
                ecdsa(EcCurve.SECP256K1, bytes, VerifyingKey.ecdsaEip191(bytes));
            case SIGNATURE_SCHEME_TK_API_ED25519 -> new DecodedKey(VerifyingKey.ed25519(bytes), HEX.formatHex(bytes));
        };
    }

    private static DecodedKey ecdsa(EcCurve curve, byte[] encoded, VerifyingKey verifier) {
        return new DecodedKey(verifier, HEX.formatHex(curve.compress(encoded)));
    }

    private static ApiException malformed(String why) {
        return new ApiException(
                ErrorCode.MALFORMED_STAMP, "malformed activity stamp: could not extract api key stamp (" + why + ")");
    }

    /** A decoded verifier and the canonical hex under which the key is stored. */
    private record DecodedKey(VerifyingKey verifier, String canonical) {}
}
