package dev.keyhaven.crypto;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.KeyFactory;
import java.security.KeyPairGenerator;
import java.security.SecureRandom;
import java.security.Signature;
import java.security.interfaces.ECPublicKey;
import java.security.spec.ECGenParameterSpec;
import java.util.HexFormat;
import org.bouncycastle.crypto.signers.StandardDSAEncoding;
import org.junit.jupiter.api.Test;

/** Signatures checked against published vectors and against independent implementations. */
class SigningKeyTest {
    private static final HexFormat HEX = HexFormat.of();

    private static SigningKey key(EcCurve curve, String scalarHex) {
        return SigningKey.ecdsa(curve, SecretBytes.adopt(HEX.parseHex(scalarHex)));
    }

    @Test
    void secp256k1SignatureMatchesTheWellKnownSatoshiVector() {
        // d = 1, SHA-256("Satoshi Nakamoto"), RFC 6979 nonce: the vector used by bitcoinjs and @noble/curves.
        try (SigningKey k =
                key(EcCurve.SECP256K1, "0000000000000000000000000000000000000000000000000000000000000001")) {
            byte[] der = k.sign("Satoshi Nakamoto".getBytes(StandardCharsets.UTF_8));
            assertThat(HEX.formatHex(der))
                    .isEqualTo("3045022100934b1ea10a4b3c1757e2b0c017d0b6143ce3c9a7e6a4a49860d7a6ab210ee3d8"
                            + "02202442ce9d2b916064108014783e923ec36b49743e2ffa1c4496f01a512aafd9e5");
        }
    }

    @Test
    void p256SignatureMatchesRfc6979VectorAfterLowSNormalisation() throws Exception {
        // RFC 6979 A.2.5, message "sample" with SHA-256: s is high, so the signer emits n - s.
        try (SigningKey k = key(EcCurve.P256, "c9afa9d845ba75166b5c215767b1d6934e50c3db36e89b127b8a622b120f6721")) {
            BigInteger[] rs = StandardDSAEncoding.INSTANCE.decode(
                    EcCurve.P256.order(), k.sign("sample".getBytes(StandardCharsets.UTF_8)));
            BigInteger s = new BigInteger("f7cb1c942d657c41d436c7a1b6e29f65f3e900dbb9aff4064dc4ab2f843acda8", 16);
            assertThat(rs[0].toString(16))
                    .isEqualTo("efd48b2aacb6a8fd1140dd9cd45e81d69d2c877b56aaf991c34d0ea84eaf3716");
            assertThat(rs[1]).isEqualTo(EcCurve.P256.order().subtract(s));
            assertThat(HEX.formatHex(k.publicKey()))
                    .isEqualTo("0360fed4ba255a9d31c961eb74c6356d68c049b8923b61fa6ce669622e60f29fb6");
        }
    }

    @Test
    void p256SignatureVerifiesWithTheJdkProvider() throws Exception {
        byte[] message = "{\"organizationId\":\"o\"}".getBytes(StandardCharsets.UTF_8);
        try (SigningKey k = SigningKey.generateEcdsa(EcCurve.P256, new SecureRandom())) {
            byte[] der = k.sign(message);
            KeyFactory factory = KeyFactory.getInstance("EC");
            KeyPairGenerator params = KeyPairGenerator.getInstance("EC");
            params.initialize(new ECGenParameterSpec("secp256r1"));
            var spec = ((ECPublicKey) params.generateKeyPair().getPublic()).getParams();
            var point = EcCurve.P256.decodePoint(k.publicKey());
            var jdkKey = factory.generatePublic(new java.security.spec.ECPublicKeySpec(
                    new java.security.spec.ECPoint(
                            point.getAffineXCoord().toBigInteger(),
                            point.getAffineYCoord().toBigInteger()),
                    spec));
            Signature jdk = Signature.getInstance("SHA256withECDSA");
            jdk.initVerify(jdkKey);
            jdk.update(message);
            assertThat(jdk.verify(der)).isTrue();
        }
    }

    @Test
    void ed25519SignatureMatchesRfc8032FirstVector() {
        try (SigningKey k = SigningKey.ed25519(
                SecretBytes.adopt(HEX.parseHex("9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60")))) {
            assertThat(HEX.formatHex(k.publicKey()))
                    .isEqualTo("d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a");
            assertThat(HEX.formatHex(k.sign(new byte[0])))
                    .isEqualTo(
                            "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46b"
                                    + "d25bf5f0595bbe24655141438e7a100b");
        }
    }

    @Test
    void rejectsKeysOfTheWrongLength() {
        assertThatThrownBy(() -> SigningKey.ecdsa(EcCurve.P256, SecretBytes.adopt(new byte[31])))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> SigningKey.ed25519(SecretBytes.adopt(new byte[33])))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void toStringNeverShowsKeyMaterial() {
        try (SigningKey k = key(EcCurve.P256, "c9afa9d845ba75166b5c215767b1d6934e50c3db36e89b127b8a622b120f6721")) {
            assertThat(k.toString()).doesNotContain("c9afa9").contains("redacted");
        }
    }
}
