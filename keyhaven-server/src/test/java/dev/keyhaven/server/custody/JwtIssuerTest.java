package dev.keyhaven.server.custody;

import static org.assertj.core.api.Assertions.assertThat;

import com.nimbusds.jose.JWSObject;
import com.nimbusds.jose.crypto.ECDSAVerifier;
import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.util.Base64URL;
import com.nimbusds.jwt.JWTClaimsSet;
import dev.keyhaven.crypto.SecretBytes;
import dev.keyhaven.crypto.SecretKeyAccess;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.time.Clock;
import java.util.Arrays;
import java.util.Base64;
import java.util.HexFormat;
import org.bouncycastle.asn1.x9.X9ECParameters;
import org.bouncycastle.crypto.digests.SHA256Digest;
import org.bouncycastle.crypto.ec.CustomNamedCurves;
import org.bouncycastle.crypto.params.ECDomainParameters;
import org.bouncycastle.crypto.params.ECPrivateKeyParameters;
import org.bouncycastle.crypto.signers.ECDSASigner;
import org.bouncycastle.crypto.signers.HMacDSAKCalculator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The JWTs Nimbus issues over a custody-held signer are byte for byte the ones Keyhaven's hand-written encoder made
 * (header {@code {"alg":"ES256","typ":"JWT"}}, claims in their order, RFC 6979 ECDSA computed here with BouncyCastle),
 * verify with Nimbus's own ES256 verifier, and Turnkey's session JWTs sign the double SHA-256.
 */
class JwtIssuerTest {
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final X9ECParameters P256 = CustomNamedCurves.getByName("secp256r1");

    @TempDir
    Path directory;

    private final InMemoryKeys.Signers rows = new InMemoryKeys.Signers();

    private BundleSigner otpSigner(KeySealer sealer) {
        return BundleSigner.load(BundleSigner.Role.OTP, InMemoryKeys.DIRECT, rows, sealer, RANDOM, Clock.systemUTC());
    }

    private static JWTClaimsSet claims() {
        // A verification token's claims, a contact with characters some JSON encoders escape.
        return new JWTClaimsSet.Builder()
                .claim("id", "c2b1ee4c-1f5e-4a4e-9f39-8b7f8a1e2d3c")
                .claim("verification_type", "OTP_TYPE_EMAIL")
                .claim("contact", "o'neil+a=b<c>&d@example.com é")
                .claim("organization_id", "org-1")
                .claim("public_key", "02" + "ab".repeat(32))
                .claim("exp", "1767225600000")
                .build();
    }

    private static final String PAYLOAD_JSON = "{\"id\":\"c2b1ee4c-1f5e-4a4e-9f39-8b7f8a1e2d3c\","
            + "\"verification_type\":\"OTP_TYPE_EMAIL\",\"contact\":\"o'neil+a=b<c>&d@example.com é\","
            + "\"organization_id\":\"org-1\",\"public_key\":\"02" + "ab".repeat(32) + "\",\"exp\":\"1767225600000\"}";

    @Test
    void anEs256TokenIsTheHandWrittenFormatByteForByteAndNimbusVerifiesIt() throws Exception {
        KeySealer sealer = InMemoryKeys.sealer(MasterKey.generate(directory.resolve("kek"), RANDOM));
        try (BundleSigner signer = otpSigner(sealer)) {
            JwtIssuer issuer = signer.jwtIssuer(JwtIssuer.Digest.ES256);
            String token = issuer.issue(claims());

            String input = b64("{\"alg\":\"ES256\",\"typ\":\"JWT\"}") + "." + b64(PAYLOAD_JSON);
            byte[] expected = rfc6979(scalar(sealer, "otp-signer"), sha256(input.getBytes(StandardCharsets.UTF_8)));
            assertThat(token)
                    .isEqualTo(input + "."
                            + Base64.getUrlEncoder().withoutPadding().encodeToString(expected));

            assertThat(JWSObject.parse(token).verify(new ECDSAVerifier(jwk(issuer.publicKeyHex()))))
                    .as("Nimbus's ES256 verifier")
                    .isTrue();
            assertThat(issuer.issued(token)).isTrue();
        }
    }

    @Test
    void aSessionTokenSignsTheDoubleSha256AsTurnkeyDoes() throws Exception {
        KeySealer sealer = InMemoryKeys.sealer(MasterKey.generate(directory.resolve("kek"), RANDOM));
        try (BundleSigner signer = otpSigner(sealer)) {
            JwtIssuer issuer = signer.jwtIssuer(JwtIssuer.Digest.TURNKEY_SESSION);
            JWTClaimsSet session = new JWTClaimsSet.Builder()
                    .claim("exp", 1767225600L)
                    .claim("public_key", "")
                    .claim("session_type", "SESSION_TYPE_READ_ONLY")
                    .claim("user_id", "u-1")
                    .claim("organization_id", "org-1")
                    .build();
            String token = issuer.issue(session);

            String input = b64("{\"alg\":\"ES256\",\"typ\":\"JWT\"}") + "."
                    + b64("{\"exp\":1767225600,\"public_key\":\"\",\"session_type\":\"SESSION_TYPE_READ_ONLY\","
                            + "\"user_id\":\"u-1\",\"organization_id\":\"org-1\"}");
            byte[] expected =
                    rfc6979(scalar(sealer, "otp-signer"), sha256(sha256(input.getBytes(StandardCharsets.UTF_8))));
            assertThat(token)
                    .isEqualTo(input + "."
                            + Base64.getUrlEncoder().withoutPadding().encodeToString(expected));
            assertThat(JWSObject.parse(token).verify(new ECDSAVerifier(jwk(issuer.publicKeyHex()))))
                    .as("not plain ES256: Turnkey's session JWTs sign SHA-256 of the signing input")
                    .isFalse();
            assertThat(issuer.issued(token)).isTrue();
            assertThat(signer.jwtIssuer(JwtIssuer.Digest.ES256).issued(token)).isFalse();
        }
    }

    @Test
    void onlyItsOwnUnalteredTokensCountAsIssued() {
        KeySealer sealer = InMemoryKeys.sealer(MasterKey.generate(directory.resolve("kek"), RANDOM));
        try (BundleSigner signer = otpSigner(sealer);
                BundleSigner other = BundleSigner.load(
                        BundleSigner.Role.OTP,
                        InMemoryKeys.DIRECT,
                        new InMemoryKeys.Signers(),
                        sealer,
                        RANDOM,
                        Clock.systemUTC())) {
            JwtIssuer issuer = signer.jwtIssuer(JwtIssuer.Digest.ES256);
            String token = issuer.issue(claims());
            String[] parts = token.split("\\.");
            String altered = parts[0] + "." + b64(PAYLOAD_JSON.replace("org-1", "org-2")) + "." + parts[2];
            assertThat(issuer.issued(altered)).isFalse();
            assertThat(issuer.issued(other.jwtIssuer(JwtIssuer.Digest.ES256).issue(claims())))
                    .isFalse();
            for (String garbage :
                    new String[] {"", "a", "a.b", "a.b.c", "..", token + "x", parts[0] + ".." + parts[2]}) {
                assertThat(issuer.issued(garbage)).as(garbage).isFalse();
            }
        }
    }

    private static String b64(String json) {
        return Base64.getUrlEncoder().withoutPadding().encodeToString(json.getBytes(StandardCharsets.UTF_8));
    }

    private static byte[] sha256(byte[] bytes) throws NoSuchAlgorithmException {
        return MessageDigest.getInstance("SHA-256").digest(bytes);
    }

    private byte[] scalar(KeySealer sealer, String row) {
        CustodyRepository.StoredSigner stored = rows.signers.get(row);
        try (SecretBytes key = sealer.open(SealPurpose.BUNDLE_SIGNER, row, row, stored.sealedKey())) {
            return key.apply(SecretKeyAccess.get(), byte[]::clone);
        }
    }

    /** ECDSA P-256 over {@code digest} with RFC 6979 nonces and low S, as raw r ‖ s: computed with BouncyCastle. */
    private static byte[] rfc6979(byte[] scalar, byte[] digest) {
        ECDomainParameters domain = new ECDomainParameters(P256);
        ECDSASigner signer = new ECDSASigner(new HMacDSAKCalculator(new SHA256Digest()));
        signer.init(true, new ECPrivateKeyParameters(new BigInteger(1, scalar), domain));
        BigInteger[] rs = signer.generateSignature(digest);
        BigInteger s =
                rs[1].compareTo(domain.getN().shiftRight(1)) > 0 ? domain.getN().subtract(rs[1]) : rs[1];
        byte[] out = new byte[64];
        fixed(rs[0], out, 0);
        fixed(s, out, 32);
        return out;
    }

    private static void fixed(BigInteger value, byte[] out, int offset) {
        byte[] bytes = value.toByteArray();
        int copy = Math.min(bytes.length, 32);
        System.arraycopy(bytes, bytes.length - copy, out, offset + 32 - copy, copy);
    }

    private static ECKey jwk(String uncompressedHex) {
        byte[] point = HexFormat.of().parseHex(uncompressedHex);
        return new ECKey.Builder(
                        Curve.P_256,
                        Base64URL.encode(Arrays.copyOfRange(point, 1, 33)),
                        Base64URL.encode(Arrays.copyOfRange(point, 33, 65)))
                .build();
    }
}
