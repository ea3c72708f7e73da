package dev.keyhaven.crypto.sign;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.keyhaven.crypto.EcCurve;
import dev.keyhaven.crypto.SecretBytes;
import dev.keyhaven.crypto.address.Taproot;
import java.io.IOException;
import java.io.InputStream;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * BIP-341's key-path spending vectors ({@code keyPathSpending} of {@code bip-0341-wallet-test-vectors.json}): the
 * tweaked secret, and the Schnorr signature of each input's sighash, made (as the vectors were) with all-zero aux.
 */
class TaprootKeyPathSigningTest {
    private static final HexFormat HEX = HexFormat.of();
    private static final byte[] ZERO_AUX = new byte[32];

    /** One key-path input of the vector: merkleRoot is null for the BIP-86 case Keyhaven signs. */
    record Spend(
            int txinIndex,
            String internalPrivkey,
            String merkleRoot,
            String tweakedPrivkey,
            String sigHash,
            String witnessSignature) {
        @Override
        public String toString() {
            return "input " + txinIndex;
        }
    }

    /**
     * The fields are read with one pattern over the file's text: each inputSpending entry lists them in this order,
     * and crypto's tests have no JSON library.
     */
    static Stream<Spend> spends() throws IOException {
        String json;
        try (InputStream in = TaprootKeyPathSigningTest.class.getResourceAsStream(
                "/vectors/address/bip-0341-wallet-test-vectors.json")) {
            json = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        Pattern entry = Pattern.compile(
                "\"txinIndex\":\\s*(\\d+),\\s*\"internalPrivkey\":\\s*\"(\\p{XDigit}+)\","
                        + "\\s*\"merkleRoot\":\\s*(null|\"\\p{XDigit}+\").*?\"tweakedPrivkey\":\\s*\"(\\p{XDigit}+)\".*?"
                        + "\"sigHash\":\\s*\"(\\p{XDigit}+)\".*?\"witness\":\\s*\\[\\s*\"(\\p{XDigit}{128})",
                Pattern.DOTALL);
        Matcher m = entry.matcher(json);
        List<Spend> spends = new ArrayList<>();
        while (m.find()) {
            String root = m.group(3).equals("null") ? null : m.group(3).replace("\"", "");
            spends.add(new Spend(Integer.parseInt(m.group(1)), m.group(2), root, m.group(4), m.group(5), m.group(6)));
        }
        return spends.stream();
    }

    @Test
    void theVectorHasSevenKeyPathInputsOneOfThemWithoutAScriptTree() throws IOException {
        assertThat(spends().map(Spend::txinIndex)).containsExactly(0, 1, 3, 4, 6, 7, 8);
        assertThat(spends().filter(s -> s.merkleRoot() == null).map(Spend::txinIndex))
                .containsExactly(0);
    }

    @ParameterizedTest
    @MethodSource("spends")
    void signsEachSighashWithTheTweakedSecretToTheWitnessSignature(Spend spend) {
        byte[] signature =
                Bip340Schnorr.sign(new BigInteger(spend.tweakedPrivkey(), 16), HEX.parseHex(spend.sigHash()), ZERO_AUX);

        assertThat(HEX.formatHex(signature)).isEqualTo(spend.witnessSignature());
    }

    @Test
    void tweaksTheSecretOfTheInputWithoutScriptTreeToItsPublishedTweakedSecret() throws IOException {
        Spend bip86 = spends().filter(s -> s.merkleRoot() == null).findFirst().orElseThrow();

        BigInteger tweaked = TaprootKeyPath.tweakSecret(new BigInteger(bip86.internalPrivkey(), 16));

        assertThat(HEX.formatHex(Bip340Schnorr.bytes32(tweaked))).isEqualTo(bip86.tweakedPrivkey());
    }

    @Test
    void payloadSignerSignsTheBip86InputFromItsUntweakedSecret() throws IOException {
        Spend bip86 = spends().filter(s -> s.merkleRoot() == null).findFirst().orElseThrow();

        byte[] signature;
        try (SecretBytes key = SecretBytes.adopt(HEX.parseHex(bip86.internalPrivkey()))) {
            signature = PayloadSigner.signTaprootKeyPath(key, HEX.parseHex(bip86.sigHash()), ZERO_AUX);
        }

        assertThat(HEX.formatHex(signature)).isEqualTo(bip86.witnessSignature());
    }

    /** Keys 1 to 8 include both y parities of P, so the negation before the tweak is exercised either way. */
    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 4, 5, 6, 7, 8})
    void signaturesVerifyUnderTheBip86OutputKeyOfTheAddressCode(int secret) {
        byte[] sighash = HEX.parseHex("2514a6272f85cfa0f45eb907fcb0d121b808ed37c6ea160a5a9046ed5526d555");
        byte[] internalX = Bip340Schnorr.xBytes(Bip340Schnorr.multiplyG(BigInteger.valueOf(secret)));

        byte[] signature;
        try (SecretBytes key = SecretBytes.adopt(Bip340Schnorr.bytes32(BigInteger.valueOf(secret)))) {
            signature = PayloadSigner.signTaprootKeyPath(key, sighash, ZERO_AUX);
        }

        assertThat(Bip340Schnorr.verify(Taproot.outputKey(internalX), sighash, signature))
                .isTrue();
        assertThat(Bip340Schnorr.verify(internalX, sighash, signature)).isFalse();
    }

    @Test
    void refusesSighashesAuxAndKeysOfTheWrongShape() {
        try (SecretBytes key = SecretBytes.adopt(Bip340Schnorr.bytes32(BigInteger.ONE))) {
            assertThatThrownBy(() -> PayloadSigner.signTaprootKeyPath(key, new byte[31], ZERO_AUX))
                    .isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> PayloadSigner.signTaprootKeyPath(key, new byte[32], new byte[33]))
                    .isInstanceOf(IllegalArgumentException.class);
        }
        try (SecretBytes zero = SecretBytes.adopt(new byte[32])) {
            assertThatThrownBy(() -> PayloadSigner.signTaprootKeyPath(zero, new byte[32], ZERO_AUX))
                    .isInstanceOf(IllegalArgumentException.class);
        }
        try (SecretBytes n = SecretBytes.adopt(Bip340Schnorr.bytes32(EcCurve.SECP256K1.order()))) {
            assertThatThrownBy(() -> PayloadSigner.signTaprootKeyPath(n, new byte[32], ZERO_AUX))
                    .isInstanceOf(IllegalArgumentException.class);
        }
    }
}
