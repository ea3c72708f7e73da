package dev.keyhaven.crypto.sign;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.keyhaven.crypto.KeyCurve;
import dev.keyhaven.crypto.SecretBytes;
import dev.keyhaven.crypto.VerifyingKey;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class PayloadSignerTest {
    private static final HexFormat HEX = HexFormat.of();
    private static final String ONE = "0000000000000000000000000000000000000000000000000000000000000001";

    private static SecretBytes key(String hex) {
        return SecretBytes.adopt(HEX.parseHex(hex));
    }

    /** RFC 8032 section 7.1, TEST 1 (empty message), TEST 2 and TEST 3. */
    @ParameterizedTest(name = "RFC 8032 {0}")
    @CsvSource(delimiter = '|', textBlock = """
        TEST 1|9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60|d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a||e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b
        TEST 2|4ccd089b28ff96da9db6c346ec114e0f5b8a319f35aba624da8cf6ed4fb8a6fb|3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c|72|92a009a9f0d4cab8720e820b5f642540a2b27b5416503f8fb3762223ebdb69da085ac1e43e15996e458f3613d0f11d8c387b2eaeb4302aeeb00d291612bb0c00
        TEST 3|c5aa8df43f9f837bedb7442f31dcb7b166d38535076f094b85ce3a2e0b4458f7|fc51cd8e6218a1a38da47ed00230f0580816ed13ba3303ac5deb911548908025|af82|6291d657deec24024827e69c3abe01a30ce548a284743a445e3680d7db5ac3ac18ff9b538d16f290ae67f760984dc6594a7c15e9716ed28dc027beceea1ec40a
        """)
    void ed25519SignaturesMatchRfc8032WithRFirstSSecondAndVZero(
            String name, String secret, String publicKey, String message, String signature) {
        byte[] msg = message == null ? new byte[0] : HEX.parseHex(message);
        try (SecretBytes seed = key(secret)) {
            assertThat(HEX.formatHex(KeyCurve.ED25519.publicKey(seed))).isEqualTo(publicKey);
            Signature sig = PayloadSigner.signEd25519(seed, msg);
            assertThat(sig.rHex()).isEqualTo(signature.substring(0, 64));
            assertThat(sig.sHex()).isEqualTo(signature.substring(64));
            assertThat(sig.vHex()).isEqualTo("00");
            assertThat(VerifyingKey.ed25519(HEX.parseHex(publicKey)).verify(msg, HEX.parseHex(sig.rHex() + sig.sHex())))
                    .isTrue();
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 20, 31, 33, 64})
    void rejectsDigestsThatAreNot32Bytes(int length) {
        try (SecretBytes k = key(ONE)) {
            assertThatThrownBy(() -> PayloadSigner.signDigest(KeyCurve.SECP256K1, k, new byte[length]))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("32 bytes");
            Signature sig = PayloadSigner.signDigest(KeyCurve.SECP256K1, k, new byte[32]);
            assertThatThrownBy(() -> PayloadSigner.recoverPublicKey(KeyCurve.SECP256K1, new byte[length], sig))
                    .isInstanceOf(IllegalArgumentException.class);
        }
    }

    @Test
    void refusesToSignWithAWipedKey() {
        SecretBytes k = key(ONE);
        k.close();
        assertThatThrownBy(() -> PayloadSigner.signDigest(KeyCurve.SECP256K1, k, new byte[32]))
                .isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> PayloadSigner.signDigest(KeyCurve.P256, k, new byte[32]))
                .isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> PayloadSigner.signEd25519(k, new byte[1])).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void signDigestRejectsEd25519BecauseItSignsMessagesNotDigests() {
        try (SecretBytes k = key(ONE)) {
            assertThatThrownBy(() -> PayloadSigner.signDigest(KeyCurve.ED25519, k, new byte[32]))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("ED25519");
        }
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "0000000000000000000000000000000000000000000000000000000000000000",
                "fffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141", // n
                "ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff",
            })
    void rejectsSecp256k1KeysOutsideOneToNMinusOne(String hex) {
        try (SecretBytes k = key(hex)) {
            assertThatThrownBy(() -> PayloadSigner.signDigest(KeyCurve.SECP256K1, k, new byte[32]))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("out of range");
        }
    }

    @Test
    void rejectsKeysThatAreNot32Bytes() {
        try (SecretBytes k = SecretBytes.adopt(new byte[31])) {
            assertThatThrownBy(() -> PayloadSigner.signDigest(KeyCurve.P256, k, new byte[32]))
                    .isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> PayloadSigner.signEd25519(k, new byte[0]))
                    .isInstanceOf(IllegalArgumentException.class);
        }
    }

    @Test
    void recoveryRejectsEd25519AndSignatureValuesOutsideTheGroup() {
        byte[] zero = new byte[32];
        byte[] one = HEX.parseHex(ONE);
        byte[] n = HEX.parseHex("fffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141");
        assertThatThrownBy(() -> PayloadSigner.recoverPublicKey(KeyCurve.ED25519, zero, new Signature(one, one, 0)))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> PayloadSigner.recoverPublicKey(KeyCurve.SECP256K1, zero, new Signature(zero, one, 0)))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> PayloadSigner.recoverPublicKey(KeyCurve.SECP256K1, zero, new Signature(one, n, 0)))
                .isInstanceOf(IllegalArgumentException.class);
        // r + n is beyond the field prime p for any r near n, so ids 2 and 3 cannot name a point.
        byte[] big = HEX.parseHex("fffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364140");
        assertThatThrownBy(() -> PayloadSigner.recoverPublicKey(KeyCurve.SECP256K1, zero, new Signature(big, one, 2)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("outside the field");
    }
}
