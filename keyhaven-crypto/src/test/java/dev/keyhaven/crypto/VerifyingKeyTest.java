package dev.keyhaven.crypto;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.HexFormat;
import org.bouncycastle.crypto.digests.SHA256Digest;
import org.bouncycastle.crypto.params.ECPrivateKeyParameters;
import org.bouncycastle.crypto.signers.ECDSASigner;
import org.bouncycastle.crypto.signers.HMacDSAKCalculator;
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
    void acceptsTheNonMinimalDerThatTurnkeysToDerSignatureWritesAndNothingLooser() {
        // A P-256 key signing bodies until r or s has a zero first byte and a second below 0x80: the case in which
        // @turnkey/crypto's toDerSignature keeps the zero (one signature in about 256).
        EcCurve curve = EcCurve.P256;
        BigInteger d = new BigInteger("c9afa9d845ba75166b5c215767b1d6934e50c3db36e89b127b8a622b120f6721", 16);
        ECDSASigner signer = new ECDSASigner(new HMacDSAKCalculator(new SHA256Digest()));
        signer.init(true, new ECPrivateKeyParameters(d, curve.domain()));
        VerifyingKey key = VerifyingKey.ecdsaSha256(
                curve, curve.domain().getG().multiply(d).normalize().getEncoded(true));
        for (int i = 0; ; i++) {
            byte[] body = ("{\"n\":" + i + "}").getBytes(StandardCharsets.UTF_8);
            BigInteger[] rs = signer.generateSignature(Digests.sha256(body));
            if (rs[0].bitLength() > 248 && rs[1].bitLength() > 248) {
                continue;
            }
            byte[] loose = turnkeyDer(rs[0], rs[1]);
            assertThat(loose).isNotEqualTo(derOf(raw(rs[0], rs[1])));
            assertThat(key.verify(body, loose)).isTrue();
            assertThat(key.verify(body, derOf(raw(rs[0], rs[1])))).isTrue();
            assertThat(key.verify(("{\"n\":-1}").getBytes(StandardCharsets.UTF_8), loose))
                    .isFalse();
            // Anything else loose is still refused: a byte after the sequence, a wrong length, a negative integer.
            byte[] trailing = Arrays.copyOf(loose, loose.length + 1);
            assertThat(key.verify(body, trailing)).isFalse();
            byte[] shortLength = loose.clone();
            shortLength[1]--;
            assertThat(key.verify(body, shortLength)).isFalse();
            byte[] negative = loose.clone();
            negative[4] = (byte) 0x80;
            assertThat(key.verify(body, negative)).isFalse();
            return;
        }
    }

    /** {@code r ‖ s}, 32 bytes each. */
    private static byte[] raw(BigInteger r, BigInteger s) {
        byte[] out = new byte[64];
        byte[] rb = r.toByteArray();
        byte[] sb = s.toByteArray();
        System.arraycopy(rb, Math.max(0, rb.length - 32), out, 32 - Math.min(32, rb.length), Math.min(32, rb.length));
        System.arraycopy(sb, Math.max(0, sb.length - 32), out, 64 - Math.min(32, sb.length), Math.min(32, sb.length));
        return out;
    }

    /** What @turnkey/crypto's toDerSignature makes of r ‖ s: each 32 bytes, a zero prepended only for a high bit. */
    private static byte[] turnkeyDer(BigInteger r, BigInteger s) {
        byte[] rs = raw(r, s);
        byte[] re = integer(Arrays.copyOfRange(rs, 0, 32));
        byte[] se = integer(Arrays.copyOfRange(rs, 32, 64));
        byte[] out = new byte[2 + re.length + se.length];
        out[0] = 0x30;
        out[1] = (byte) (re.length + se.length);
        System.arraycopy(re, 0, out, 2, re.length);
        System.arraycopy(se, 0, out, 2 + re.length, se.length);
        return out;
    }

    private static byte[] integer(byte[] value) {
        int pad = (value[0] & 0x80) != 0 ? 1 : 0;
        byte[] out = new byte[2 + pad + value.length];
        out[0] = 0x02;
        out[1] = (byte) (pad + value.length);
        System.arraycopy(value, 0, out, 2 + pad, value.length);
        return out;
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
