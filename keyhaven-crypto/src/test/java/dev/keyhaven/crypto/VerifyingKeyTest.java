package dev.keyhaven.crypto;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;

/** Verification against signatures made by independent implementations (@noble/curves, viem, RFC vectors). */
class VerifyingKeyTest {
    private static final HexFormat HEX = HexFormat.of();
    private static final byte[] BODY = "{\"organizationId\":\"x\"}".getBytes(StandardCharsets.UTF_8);

    @Test
    void verifiesSecp256k1DerSignatureMadeByNobleCurves() {
        VerifyingKey key = VerifyingKey.ecdsaSha256(
                EcCurve.SECP256K1, HEX.parseHex("030947751e3022ecf3016be03ec77ab0ce3c2662b4843898cb068d74f698ccc8ad"));
        byte[] der = HEX.parseHex("30440220689fb751b5273a61a7d847a1202b33a18b07c9b32c592a4a9bb89adf9b1b8b0b"
                + "02201487008ccdc631fd1382579f3db0c6233bdc17930019ed24490c62a2d93463be");
        assertThat(key.verify(BODY, der)).isTrue();
        assertThat(key.verify("{\"organizationId\":\"y\"}".getBytes(StandardCharsets.UTF_8), der))
                .isFalse();
    }

    @Test
    void verifiesEip191SignatureMadeByViem() {
        // viem's account.signMessage over the same body; the stamp carries r||s in DER and drops v.
        byte[] rsv = HEX.parseHex("b400f86c2dc17e59b5d6917d30179fa284a73802399002ea4a5f6fb4d7f75fd4"
                + "5f33705682f6b1e7fcfbd3e5428535c3fbd81a5b313b8fc422b72f06b20dc2951c");
        byte[] der = derOf(rsv);
        VerifyingKey key = VerifyingKey.ecdsaEip191(
                HEX.parseHex(
                        "040947751e3022ecf3016be03ec77ab0ce3c2662b4843898cb068d74f698ccc8ad75aa17564ae80a20bb044ee7a6d903e8e8df624b089c95d66a0570f051e5a05b"));
        assertThat(key.verify(BODY, der)).isTrue();
        // The same signature is not a plain SHA-256 ECDSA signature of the body.
        VerifyingKey plain = VerifyingKey.ecdsaSha256(
                EcCurve.SECP256K1, HEX.parseHex("030947751e3022ecf3016be03ec77ab0ce3c2662b4843898cb068d74f698ccc8ad"));
        assertThat(plain.verify(BODY, der)).isFalse();
    }

    @Test
    void verifiesEd25519Rfc8032Vector() {
        VerifyingKey key =
                VerifyingKey.ed25519(HEX.parseHex("d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a"));
        byte[] sig = HEX.parseHex(
                "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46b"
                        + "d25bf5f0595bbe24655141438e7a100b");
        assertThat(key.verify(new byte[0], sig)).isTrue();
        assertThat(key.verify(new byte[] {1}, sig)).isFalse();
        assertThat(key.verify(new byte[0], new byte[63])).isFalse();
    }

    @Test
    void acceptsHighSAndLowSForms() {
        try (SigningKey k = SigningKey.generateEcdsa(EcCurve.P256, new SecureRandom())) {
            byte[] lowS = k.sign(BODY);
            var rs = decode(lowS);
            byte[] highS = encode(rs[0], EcCurve.P256.order().subtract(rs[1]));
            VerifyingKey key = VerifyingKey.ecdsaSha256(EcCurve.P256, k.publicKey());
            assertThat(key.verify(BODY, lowS)).isTrue();
            assertThat(key.verify(BODY, highS)).isTrue();
        }
    }

    @Test
    void malformedSignaturesAreRejectedNotThrown() {
        try (SigningKey k = SigningKey.generateEcdsa(EcCurve.P256, new SecureRandom())) {
            VerifyingKey key = VerifyingKey.ecdsaSha256(EcCurve.P256, k.publicKey());
            assertThat(key.verify(BODY, new byte[0])).isFalse();
            assertThat(key.verify(BODY, new byte[] {0x30, 0x02, 0x01})).isFalse();
            assertThat(key.verify(BODY, new byte[70])).isFalse();
        }
    }

    @Test
    void rejectsPointsNotOnTheCurve() {
        byte[] notOnCurve = HEX.parseHex("04" + "01".repeat(64));
        assertThatThrownBy(() -> VerifyingKey.ecdsaSha256(EcCurve.P256, notOnCurve))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> VerifyingKey.ecdsaSha256(EcCurve.P256, new byte[10]))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> VerifyingKey.ed25519(new byte[31])).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void compressAndDecompressRoundTrip() {
        byte[] compressed = HEX.parseHex("030947751e3022ecf3016be03ec77ab0ce3c2662b4843898cb068d74f698ccc8ad");
        byte[] uncompressed = EcCurve.SECP256K1.decompress(compressed);
        assertThat(HEX.formatHex(uncompressed))
                .isEqualTo("040947751e3022ecf3016be03ec77ab0ce3c2662b4843898cb068d74f698ccc8ad"
                        + "75aa17564ae80a20bb044ee7a6d903e8e8df624b089c95d66a0570f051e5a05b");
        assertThat(EcCurve.SECP256K1.compress(uncompressed)).isEqualTo(compressed);
    }

    private static byte[] derOf(byte[] rsv) {
        return encode(
                new java.math.BigInteger(1, java.util.Arrays.copyOfRange(rsv, 0, 32)),
                new java.math.BigInteger(1, java.util.Arrays.copyOfRange(rsv, 32, 64)));
    }

    private static java.math.BigInteger[] decode(byte[] der) {
        try {
            return org.bouncycastle.crypto.signers.StandardDSAEncoding.INSTANCE.decode(EcCurve.P256.order(), der);
        } catch (java.io.IOException e) {
            throw new AssertionError(e);
        }
    }

    private static byte[] encode(java.math.BigInteger r, java.math.BigInteger s) {
        try {
            return org.bouncycastle.crypto.signers.StandardDSAEncoding.INSTANCE.encode(EcCurve.SECP256K1.order(), r, s);
        } catch (java.io.IOException e) {
            throw new AssertionError(e);
        }
    }
}
