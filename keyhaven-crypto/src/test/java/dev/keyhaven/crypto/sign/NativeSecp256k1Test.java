package dev.keyhaven.crypto.sign;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.keyhaven.crypto.EcCurve;
import dev.keyhaven.crypto.KeyCurve;
import dev.keyhaven.crypto.SecretBytes;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * libsecp256k1 against BouncyCastle, an independent implementation of the same RFC 6979 signatures: every signature
 * must be the same byte for byte. The published vectors go through the native library too ({@link EcdsaVectorsTest}
 * signs with {@link PayloadSigner}, which {@link #theInstalledLibrarySignsForPayloadSigner} shows is native). The
 * library is a test prerequisite ({@code libsecp256k1-1} on Debian, which {@code .ci/run} installs).
 */
class NativeSecp256k1Test {
    private static final BigInteger N = EcCurve.SECP256K1.order();
    private static final Secp256k1Signers FOUND = Secp256k1Signers.choose(null);

    @Test
    void theInstalledLibrarySignsForPayloadSigner() {
        assertThat(FOUND.isNative())
                .as(
                        "libsecp256k1 must be installed for these tests (Debian: apt-get install libsecp256k1-1): %s",
                        FOUND.describe())
                .isTrue();
        assertThat(FOUND.describe()).matches("libsecp256k1 \\(libsecp256k1\\.so(\\.[12])?\\)");
        assertThat(PayloadSigner.secp256k1Implementation()).isEqualTo(FOUND.describe());
    }

    @Test
    void signsEveryKeyAndDigestExactlyAsBouncyCastleDoes() {
        NativeSecp256k1 library = NativeSecp256k1.open("libsecp256k1.so.1");
        Random random = new Random(24);
        List<BigInteger> keys = new ArrayList<>(List.of(
                BigInteger.ONE,
                BigInteger.TWO,
                N.subtract(BigInteger.ONE),
                N.shiftRight(1),
                BigInteger.ONE.shiftLeft(255)));
        while (keys.size() < 300) {
            BigInteger d = new BigInteger(256, random);
            if (d.signum() > 0 && d.compareTo(N) < 0) {
                keys.add(d);
            }
        }
        int oddY = 0;
        for (BigInteger d : keys) {
            byte[] digest = new byte[32];
            random.nextBytes(digest);
            Signature expected = RecoverableEcdsaSigner.sign(EcCurve.SECP256K1, d, digest);
            Signature actual = library.sign(RecoverableEcdsaSigner.toBytes32(d), digest);
            assertThat(actual).as("key %s", d.toString(16)).isEqualTo(expected);
            oddY += actual.v() & 1;
        }
        // R has odd y about half the time: the recovery id really is carried over (not always 0).
        assertThat(oddY).isBetween(100, 200);
    }

    @Test
    void itsSignaturesRecoverTheSignersPublicKey() {
        byte[] secret = RecoverableEcdsaSigner.toBytes32(
                new BigInteger("e91671c46231f833a6406ccbea0e3e392c76c167bac1cb013f6f1013980455c2", 16));
        byte[] digest = new byte[32];
        new Random(7).nextBytes(digest);
        try (SecretBytes key = SecretBytes.copyOf(secret)) {
            Signature signature = PayloadSigner.signDigest(KeyCurve.SECP256K1, key, digest);
            assertThat(PayloadSigner.recoverPublicKey(KeyCurve.SECP256K1, digest, signature))
                    .isEqualTo(KeyCurve.SECP256K1.publicKey(key));
        }
    }

    @Test
    void refusesAKeyOutsideTheGroupOrder() {
        NativeSecp256k1 library = NativeSecp256k1.open("libsecp256k1.so.1");
        byte[] digest = new byte[32];
        assertThatThrownBy(() -> library.sign(new byte[32], digest))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("private key is out of range for SECP256K1");
        assertThatThrownBy(() -> library.sign(RecoverableEcdsaSigner.toBytes32(N), digest))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("private key is out of range for SECP256K1");
    }

    @Test
    void refusesArraysOfAnotherLengthBeforeTheLibraryReadsThem() {
        NativeSecp256k1 library = NativeSecp256k1.open("libsecp256k1.so.1");
        byte[] key = RecoverableEcdsaSigner.toBytes32(BigInteger.ONE);
        assertThatThrownBy(() -> library.sign(new byte[31], new byte[32]))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("libsecp256k1 signs a 32-byte digest with a 32-byte key");
        assertThatThrownBy(() -> library.sign(key, new byte[16]))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("libsecp256k1 signs a 32-byte digest with a 32-byte key");
    }

    @Test
    void noneChoosesBouncyCastle() {
        Secp256k1Signers none = Secp256k1Signers.choose("none");
        assertThat(none.isNative()).isFalse();
        assertThat(none.describe()).isEqualTo("BouncyCastle (KEYHAVEN_SECP256K1_LIBRARY=none)");
        byte[] digest = new byte[32];
        BigInteger d = BigInteger.valueOf(1234567);
        assertThat(none.sign(d, RecoverableEcdsaSigner.toBytes32(d), digest))
                .isEqualTo(FOUND.sign(d, RecoverableEcdsaSigner.toBytes32(d), digest));
    }

    @Test
    void aNamedLibraryThatCannotBeOpenedRefusesToSignInsteadOfFallingBack() {
        Secp256k1Signers missing = Secp256k1Signers.choose("/nonexistent/libsecp256k1.so");
        assertThat(missing.isNative()).isFalse();
        String reason = "KEYHAVEN_SECP256K1_LIBRARY=/nonexistent/libsecp256k1.so cannot sign: "
                + "/nonexistent/libsecp256k1.so cannot be opened";
        assertThatThrownBy(missing::describe)
                .isInstanceOf(IllegalStateException.class)
                .hasMessage(reason);
        assertThatThrownBy(() ->
                        missing.sign(BigInteger.ONE, RecoverableEcdsaSigner.toBytes32(BigInteger.ONE), new byte[32]))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage(reason);
    }

    @Test
    void aNamedLibraryWithoutTheFunctionsRefusesToSign() {
        Secp256k1Signers libc = Secp256k1Signers.choose("libc.so.6");
        assertThatThrownBy(libc::describe)
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("KEYHAVEN_SECP256K1_LIBRARY=libc.so.6 cannot sign: the library has no "
                        + "secp256k1_context_create");
    }
}
