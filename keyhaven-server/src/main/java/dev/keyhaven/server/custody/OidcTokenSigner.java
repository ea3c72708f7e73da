package dev.keyhaven.server.custody;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.KeyUse;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import dev.keyhaven.crypto.EcCurve;
import dev.keyhaven.crypto.SecretBytes;
import dev.keyhaven.crypto.SecretKeyAccess;
import dev.keyhaven.crypto.SigningKey;
import dev.keyhaven.server.tx.Transactor;
import java.security.AlgorithmParameters;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.SecureRandom;
import java.security.interfaces.ECPublicKey;
import java.security.spec.ECGenParameterSpec;
import java.security.spec.ECParameterSpec;
import java.security.spec.ECPoint;
import java.security.spec.ECPublicKeySpec;
import java.time.Clock;
import java.util.HexFormat;

/**
 * The key that signs the OIDC tokens {@code oauth2_authenticate} mints (ES256, with a {@code kid}): a server-held
 * P-256 key, generated on the first start and sealed under the KEK like the bundle signers. Its public half is
 * published as a JWK so verifiers (Keyhaven's own OIDC verification, or a client) trust exactly these tokens.
 */
public final class OidcTokenSigner implements AutoCloseable {
    static final String ROW = "oauth2-token-signer";

    private final SigningKey key;
    private final P256JwsSigner signer;
    private final ECKey publicJwk;

    private OidcTokenSigner(SigningKey key, ECKey publicJwk) {
        this.key = key;
        this.signer = new P256JwsSigner(key, JwtIssuer.Digest.ES256);
        this.publicJwk = publicJwk;
    }

    /** The database's token signer, generated and recorded there when it has none yet. */
    public static OidcTokenSigner load(
            Transactor transactor, CustodyRepository repository, KeySealer sealer, SecureRandom random, Clock clock) {
        CustodyRepository.StoredSigner stored = DeploymentKeys.loadOrCreate(
                ROW, SealPurpose.OAUTH2_TOKEN_SIGNER, transactor, repository, sealer, random, clock);
        byte[] point = HexFormat.of().parseHex(stored.publicKeyHex());
        try (SecretBytes scalar = DeploymentKeys.open(ROW, SealPurpose.OAUTH2_TOKEN_SIGNER, sealer, stored)) {
            ECParameterSpec p256 = p256();
            KeyFactory factory = KeyFactory.getInstance("EC");
            var decoded = EcCurve.P256.decodePoint(point);
            ECPublicKey publicKey = (ECPublicKey) factory.generatePublic(new ECPublicKeySpec(
                    new ECPoint(
                            decoded.getAffineXCoord().toBigInteger(),
                            decoded.getAffineYCoord().toBigInteger()),
                    p256));
            ECKey withoutId = new ECKey.Builder(Curve.P_256, publicKey)
                    .keyUse(KeyUse.SIGNATURE)
                    .algorithm(JWSAlgorithm.ES256)
                    .build();
            // The kid is the RFC 7638 thumbprint: stable for the key, and the same on every server of the database.
            ECKey jwk = new ECKey.Builder(withoutId)
                    .keyID(withoutId.computeThumbprint().toString())
                    .build();
            return new OidcTokenSigner(
                    SigningKey.ecdsa(EcCurve.P256, scalar.apply(SecretKeyAccess.get(), SecretBytes::copyOf)), jwk);
        } catch (GeneralSecurityException | JOSEException e) {
            throw new CustodyException("cannot load the OIDC token signer", e);
        }
    }

    private static ECParameterSpec p256() throws GeneralSecurityException {
        AlgorithmParameters parameters = AlgorithmParameters.getInstance("EC");
        parameters.init(new ECGenParameterSpec("secp256r1"));
        return parameters.getParameterSpec(ECParameterSpec.class);
    }

    /** The public key as a JWK ({@code kty EC, crv P-256, use sig, alg ES256, kid}). */
    public ECKey publicJwk() {
        return publicJwk;
    }

    /** {@code claims} as a compact JWS: header {@code {"alg":"ES256","typ":"JWT","kid"}}. */
    public String sign(JWTClaimsSet claims) {
        SignedJWT jwt = new SignedJWT(
                new JWSHeader.Builder(JWSAlgorithm.ES256)
                        .type(JOSEObjectType.JWT)
                        .keyID(publicJwk.getKeyID())
                        .build(),
                claims);
        try {
            jwt.sign(signer);
        } catch (JOSEException e) {
            throw new CustodyException("signing an OIDC token failed", e);
        }
        return jwt.serialize();
    }

    @Override
    public void close() {
        key.close();
    }

    @Override
    public String toString() {
        return "OidcTokenSigner[" + publicJwk.getKeyID() + "]";
    }
}
