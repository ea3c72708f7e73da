package dev.keyhaven.chains.bitcoin;

import static dev.keyhaven.chains.bitcoin.Fixtures.HEX;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import dev.keyhaven.chains.TransactionFormatException;
import dev.keyhaven.chains.bitcoin.InputToSign.Scheme;
import dev.keyhaven.crypto.KeyCurve;
import dev.keyhaven.crypto.SecretBytes;
import dev.keyhaven.crypto.sign.PayloadSigner;
import dev.keyhaven.crypto.sign.Signature;
import fr.acinq.bitcoin.Satoshi;
import fr.acinq.bitcoin.Transaction;
import fr.acinq.bitcoin.TxOut;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.JsonNode;

/**
 * BIP-143's native P2WPKH and P2WSH examples (values copied from {@code bip-0143.mediawiki} at bitcoin/bips
 * {@code 7fe0b034}) and BIP-341's wallet vectors ({@code bip-0341-wallet-test-vectors.json}), through Keyhaven's
 * classes: a PSBT of the published transaction where the vector fits what Keyhaven signs, {@link Sighashes} with the
 * vector's own hash type where it does not.
 */
class PublishedVectorsTest {
    private static final JsonNode BIP341 = Fixtures.json("/bitcoin/bip-0341-wallet-test-vectors.json");

    private static final String P2WPKH_TX = "0100000002fff7f7881a8099afa6940d42d1e7f6362bec38171ea3edf433541db4e4ad969f"
            + "0000000000eeffffffef51e1b804cc89d182d279655c3aa89e815b1b309fe287d9b2b55d57b90ec68a0100000000ffffffff02"
            + "202cb206000000001976a9148280b37df378db99f66f85c95a783a76ac7a6d5988ac9093510d000000001976a9143bde42dbee"
            + "7e4dbe6a21b2d50ce2f0167faa815988ac11000000";

    /** BIP-143 "Native P2WPKH": the first input is someone's P2PK, the second the key's P2WPKH. */
    @Test
    void signsTheP2wpkhInputOfBip143sNativeExample() {
        byte[] psbt = PsbtMaps.of(
                        P2WPKH_TX,
                        List.of(
                                Map.of(
                                        "01",
                                        PsbtMaps.txOut(
                                                625_000_000L,
                                                "2103c9f4836b9a4f77fc0d81f7bcb01b7f1b35916864b9476c241ce9fc198bd25432ac")),
                                Map.of(
                                        "01",
                                        PsbtMaps.txOut(600_000_000L, "00141d0f172a0ecb48aee1be1f2687d2963ae33f71a1"))),
                        2)
                .write();

        List<InputToSign> toSign = PartiallySignedTransaction.parse(psbt)
                .inputsSpendableBy(HEX.parseHex("025476c2e83188368da1ff3e292e7acafcdb3566bb0ad253f62fc70f07aeee6357"));

        assertThat(toSign)
                .containsExactly(new InputToSign(
                        1,
                        Scheme.ECDSA,
                        HEX.parseHex("c37af31116d1b27caf68aae9e3ac82f1477929014d5b917657d0eb49478cb670")));
        Signature signature;
        try (SecretBytes key =
                SecretBytes.adopt(HEX.parseHex("619c335025c7f4012e556c2a58b2506e30b8511b53ade95ea316fd8c3286feb9"))) {
            signature = PayloadSigner.signDigest(
                    KeyCurve.SECP256K1, key, toSign.getFirst().sighash());
        }
        InputSignature inserted = InputSignature.ecdsa(
                1,
                HEX.parseHex("025476c2e83188368da1ff3e292e7acafcdb3566bb0ad253f62fc70f07aeee6357"),
                signature.r(),
                signature.s());
        assertThat(HEX.formatHex(inserted.value()))
                .isEqualTo("304402203609e17b84f6a7d30c80bfa610b5b4542f32a8a0d5447a"
                        + "12fb1366d7f01cc44a0220573a954c4518331561406f90300e8f3358f51928d43c212a8caed02de67eebee01");
    }

    private static final String P2WSH_TX = "0100000002fe3dc9208094f3ffd12645477b3dc56f60ec4fa8e6f5d67c565d1c6b9216b36e"
            + "0000000000ffffffff0815cf020f013ed6cf91d29f4202e8a58726b1ac6c79da47c23d1bee0a6925f80000000000ffffffff01"
            + "00f2052a010000001976a914a30741f8145e5acadf23f751864167f32e0963f788ac00000000";
    private static final String P2WSH_TX_2 = "0100000002e9b542c5176808107ff1df906f46bb1f2583b16112b95ee5380665ba7fcfc0"
            + "010000000000ffffffff80e68831516392fcd100d186b3c2c7b95c80b53c77e77c35ba03a66b429a2a1b0000000000ffffffff"
            + "0280969800000000001976a914de4b231626ef508c9a74a8517e6783c0546d6b2888ac80969800000000001976a9146648a8cd"
            + "4531e1ec47f35916de8e259237294d1e88ac00000000";

    /** BIP-143 "Native P2WSH": both examples, with their SINGLE and SINGLE|ANYONECANPAY types and script codes. */
    static Stream<Arguments> nativeP2wshSighashes() {
        String key1 = "026dccc749adc2a9d0d89497ac511f760f45c47dc5ed9cf352a58ac706453880ae";
        String key2 = "0255a9626aebf5e29c0e6538428ba0d1dcf6ca98ffdf086aa8ced5e0d0215ea465";
        String key3 = "0392972e2eb617b2388771abe27235fd5ac44af8e61693261550447a4c3e39da98";
        return Stream.of(
                Arguments.of(
                        P2WSH_TX,
                        1,
                        3,
                        4_900_000_000L,
                        "21" + key1 + "adab21" + key2 + "ac",
                        "82dde6e4f1e94d02c2b7ad03d2115d691f48d064e9d52f58194a6637e4194391"),
                Arguments.of(
                        P2WSH_TX,
                        1,
                        3,
                        4_900_000_000L,
                        "21" + key2 + "ac",
                        "fef7bd749cce710c5c052bd796df1af0d935e59cea63736268bcbe2d2134fc47"),
                Arguments.of(
                        P2WSH_TX_2,
                        0,
                        0x83,
                        16_777_215L,
                        "0063ab6821" + key3 + "ac",
                        "e9071e75e25b8a1e298a72f0d2e9f4f95a0f5cdf86a533cda597eb402ed13b3a"),
                Arguments.of(
                        P2WSH_TX_2,
                        1,
                        0x83,
                        16_777_215L,
                        "6821" + key3 + "ac",
                        "cd72f1f1a433ee9df816857fad88d8ebd97e09a75cd481583eb841c330275e54"));
    }

    @ParameterizedTest
    @MethodSource("nativeP2wshSighashes")
    void computesTheSighashesOfBip143sNativeP2wshExamples(
            String unsignedTx, int index, int hashType, long amount, String scriptCode, String sighash) {
        Transaction tx = Transaction.read(unsignedTx);

        assertThat(HEX.formatHex(Sighashes.segwitV0(tx, index, HEX.parseHex(scriptCode), amount, hashType)))
                .isEqualTo(sighash);
    }

    /** The same P2WSH input in a PSBT: its OP_CODESEPARATOR makes the script code depend on the path taken. */
    @Test
    void refusesTheP2wshInputOfBip143WhoseWitnessScriptHasACodeSeparator() {
        byte[] psbt = PsbtMaps.of(
                        P2WSH_TX,
                        List.of(
                                Map.of(
                                        "01",
                                        PsbtMaps.txOut(
                                                156_250_000L,
                                                "21036d5c20fa14fb2f635474c1dc4ef5909d4568e5569b79fc94d3448486e14685f8ac")),
                                Map.of(
                                        "01",
                                        PsbtMaps.txOut(
                                                4_900_000_000L,
                                                "00205d1b56b63d714eebe542309525f484b7e9d6f686b3781b6f61ef925d66d6f6a0"),
                                        "05",
                                        "21026dccc749adc2a9d0d89497ac511f760f45c47dc5ed9cf352a58ac706453880aeadab210255a9626aeb"
                                                + "f5e29c0e6538428ba0d1dcf6ca98ffdf086aa8ced5e0d0215ea465ac")),
                        1)
                .write();

        assertThatThrownBy(() -> PartiallySignedTransaction.parse(psbt)
                        .inputsSpendableBy(
                                HEX.parseHex("026dccc749adc2a9d0d89497ac511f760f45c47dc5ed9cf352a58ac706453880ae")))
                .isInstanceOf(TransactionFormatException.class)
                .hasMessageStartingWith("input 1: the witness script holds OP_CODESEPARATOR");
    }

    static Stream<JsonNode> keyPathSpends() {
        List<JsonNode> spends = new ArrayList<>();
        BIP341.get("keyPathSpending").get(0).get("inputSpending").forEach(spends::add);
        return spends.stream();
    }

    /** Every key-path input of BIP-341's vector, with its own hash type (DEFAULT, ALL, NONE, SINGLE, ANYONECANPAY). */
    @ParameterizedTest
    @MethodSource("keyPathSpends")
    void computesEachBip341KeyPathSighash(JsonNode spend) {
        int index = spend.get("given").get("txinIndex").asInt();
        int hashType = spend.get("given").get("hashType").asInt();

        byte[] sighash = Sighashes.taprootKeyPath(bip341Tx(), index, bip341Spent(), hashType);

        assertThat(HEX.formatHex(sighash))
                .isEqualTo(spend.get("intermediary").get("sigHash").asString());
    }

    /** BIP-86's case of the vector: an output key with no script tree is recognised from either y parity of P. */
    @ParameterizedTest
    @CsvSource({"02", "03"})
    void recognisesTheBip86OutputOfTheVectorsKeyWithoutScriptTree(String parity) {
        JsonNode vector = BIP341.get("scriptPubKey").get(0);
        assertThat(vector.get("given").get("scriptTree").isNull()).isTrue();
        byte[] key =
                HEX.parseHex(parity + vector.get("given").get("internalPubkey").asString());

        assertThat(SignerKey.of(key)
                        .isP2tr(HEX.parseHex(
                                vector.get("expected").get("scriptPubKey").asString())))
                .isTrue();
        List<InputToSign> toSign =
                PartiallySignedTransaction.parse(bip341Psbt(Map.of())).inputsSpendableBy(key);
        assertThat(toSign)
                .extracting(InputToSign::index, InputToSign::scheme)
                .containsExactly(tuple(0, Scheme.TAPROOT_KEY_PATH));
        assertThat(toSign.getFirst().sighash())
                .isEqualTo(Sighashes.taprootKeyPath(bip341Tx(), 0, bip341Spent(), Sighashes.SIGHASH_DEFAULT));
    }

    /** BIP-341's input 0 is signed SIGHASH_SINGLE: asked for in the PSBT, that is refused. */
    @Test
    void refusesTheSighashSingleOfBip341sInput0() {
        byte[] key = HEX.parseHex("02"
                + BIP341.get("scriptPubKey")
                        .get(0)
                        .get("given")
                        .get("internalPubkey")
                        .asString());

        assertThatThrownBy(() -> PartiallySignedTransaction.parse(bip341Psbt(Map.of(0, Map.of("03", "03000000"))))
                        .inputsSpendableBy(key))
                .isInstanceOf(TransactionFormatException.class)
                .hasMessage("input 0: asks for sighash type 0x3; Keyhaven signs SIGHASH_DEFAULT (taproot inputs) only");
    }

    /** BIP-341's input 4 is SIGHASH_DEFAULT but its output commits to a script tree. */
    @Test
    void refusesBip341sInput4WhoseOutputCommitsToAScriptTree() {
        String internalKey = keyPathSpends()
                .filter(s -> s.get("given").get("txinIndex").asInt() == 4)
                .findFirst()
                .orElseThrow()
                .get("intermediary")
                .get("internalPubkey")
                .asString();

        assertThatThrownBy(() -> PartiallySignedTransaction.parse(bip341Psbt(Map.of(4, Map.of("17", internalKey))))
                        .inputsSpendableBy(HEX.parseHex("02" + internalKey)))
                .isInstanceOf(TransactionFormatException.class)
                .hasMessageStartingWith("input 4: tap_internal_key is the key's, but the output is not its BIP-86");
    }

    private static Transaction bip341Tx() {
        return Transaction.read(BIP341.get("keyPathSpending")
                .get(0)
                .get("given")
                .get("rawUnsignedTx")
                .asString());
    }

    private static List<TxOut> bip341Spent() {
        List<TxOut> spent = new ArrayList<>();
        for (JsonNode utxo : BIP341.get("keyPathSpending").get(0).get("given").get("utxosSpent")) {
            spent.add(new TxOut(
                    new Satoshi(utxo.get("amountSats").asLong()),
                    HEX.parseHex(utxo.get("scriptPubKey").asString())));
        }
        return spent;
    }

    /** The vector's transaction as a PSBT: a witness_utxo for every input, plus {@code extra} entries by input. */
    private static byte[] bip341Psbt(Map<Integer, Map<String, String>> extra) {
        List<Map<String, String>> inputs = new ArrayList<>();
        List<TxOut> spent = bip341Spent();
        for (int i = 0; i < spent.size(); i++) {
            Map<String, String> input = new LinkedHashMap<>(Map.of(
                    "01",
                    PsbtMaps.txOut(
                            spent.get(i).amount.toLong(),
                            HEX.formatHex(spent.get(i).publicKeyScript.toByteArray()))));
            input.putAll(extra.getOrDefault(i, Map.of()));
            inputs.add(input);
        }
        return PsbtMaps.of(
                        HEX.formatHex(Transaction.write(bip341Tx())),
                        inputs,
                        bip341Tx().txOut.size())
                .write();
    }
}
