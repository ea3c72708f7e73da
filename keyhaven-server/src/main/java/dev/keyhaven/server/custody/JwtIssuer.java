package dev.keyhaven.server.custody;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.JWSObject;
import com.nimbusds.jose.Payload;
import com.nimbusds.jose.util.Base64URL;
import com.nimbusds.jwt.JWTClaimsSet;
import dev.keyhaven.crypto.Digests;
import dev.keyhaven.crypto.EcCurve;
import dev.keyhaven.crypto.VerifyingKey;
import java.nio.charset.StandardCharsets;
import java.text.ParseException;
import java.util.Date;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;

/**
 * Issues the JWTs of one deployment signer: Nimbus builds and serializes them ({@link JWSObject}), custody signs
 * ({@link P256JwsSigner}); the private key never leaves custody. The header is exactly
 * {@code {"alg":"ES256","typ":"JWT"}} and the payload the claims in the order they were set, as the OTP verification
 * tokens and Turnkey's session JWTs have always been.
 */
public final class JwtIssuer {
    /** What ECDSA signs: the JWS signing input (ES256), or its SHA-256 (Turnkey's session JWTs). */
    public enum Digest {
        ES256,
        TURNKEY_SESSION
    }

    private static final ObjectMapper JSON = JsonMapper.builder().build();
    private static final JWSHeader HEADER;

    static {
        try {
            // Parsed from its exact bytes, so Nimbus serializes this header byte for byte (a built one's member
            // order is the library's).
            HEADER = JWSHeader.parse(
                    Base64URL.encode("{\"alg\":\"ES256\",\"typ\":\"JWT\"}".getBytes(StandardCharsets.UTF_8)));
        } catch (ParseException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final P256JwsSigner signer;
    private final Digest digest;
    private final String publicKeyHex;

    JwtIssuer(P256JwsSigner signer, Digest digest, String publicKeyHex) {
        this.signer = signer;
        this.digest = digest;
        this.publicKeyHex = publicKeyHex;
    }

    /** The signer's public key: 65-byte uncompressed SEC1, hex. */
    public String publicKeyHex() {
        return publicKeyHex;
    }

    /** {@code claims} as a compact JWS signed by this signer. */
    public String issue(JWTClaimsSet claims) {
        JWSObject jws = new JWSObject(HEADER, new Payload(payload(claims)));
        try {
            jws.sign(signer);
        } catch (JOSEException e) {
            throw new CustodyException("signing a JWT failed", e);
        }
        return jws.serialize();
    }

    /**
     * The claims as JSON in the order they were set (Nimbus's own serialization does not keep it); a date is its epoch
     * second, as RFC 7519's NumericDate.
     */
    private static byte[] payload(JWTClaimsSet claims) {
        Map<String, Object> ordered = new LinkedHashMap<>();
        claims.getClaims()
                .forEach(
                        (name, value) -> ordered.put(name, value instanceof Date date ? date.getTime() / 1000 : value));
        return JSON.writeValueAsBytes(ordered);
    }

    /** Whether {@code token} is an ES256 JWS carrying this signer's signature; never throws on bad input. */
    public boolean issued(String token) {
        try {
            JWSObject jws = JWSObject.parse(token);
            if (!JWSAlgorithm.ES256.equals(jws.getHeader().getAlgorithm())) {
                return false;
            }
            byte[] input = jws.getSigningInput();
            return VerifyingKey.ecdsaSha256(EcCurve.P256, HexFormat.of().parseHex(publicKeyHex))
                    .verify(
                            digest == Digest.TURNKEY_SESSION ? Digests.sha256(input) : input,
                            EcdsaSignatures.rawToDer(jws.getSignature().decode()));
        } catch (ParseException | IllegalArgumentException e) {
            return false;
        }
    }

    @Override
    public String toString() {
        return "JwtIssuer[" + digest + ", " + publicKeyHex + "]";
    }
}
