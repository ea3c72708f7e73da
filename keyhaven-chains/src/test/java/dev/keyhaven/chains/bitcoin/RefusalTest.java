package dev.keyhaven.chains.bitcoin;

import static dev.keyhaven.chains.bitcoin.Fixtures.HEX;
import static dev.keyhaven.chains.bitcoin.Fixtures.KEY;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.keyhaven.chains.TransactionFormatException;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Inputs of the key Keyhaven does not sign, and PSBTs whose data contradict themselves, are refused by input. */
class RefusalTest {

    /** PSBTs bitcoinjs built (see the README of the vectors): the message each refusal starts with. */
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
        p2shP2wpkh                   | input 0: pays the key through P2SH-wrapped segwit (P2SH-P2WPKH)
        p2shP2wpkhWithoutRedeemScript | input 0: pays the key through P2SH-wrapped segwit (P2SH-P2WPKH)
        p2shP2wsh                    | input 0: pays the key through P2SH-wrapped segwit (P2SH-P2WSH)
        taprootScriptTree            | input 0: tap_internal_key is the key's, but the output is not its BIP-86 output
        ecdsaSighashSingle           | input 0: asks for sighash type 0x3; Keyhaven signs SIGHASH_ALL
        taprootSighashAll            | input 0: asks for sighash type 0x1; Keyhaven signs SIGHASH_DEFAULT
        p2pkhWithOnlyWitnessUtxo     | input 0: a P2PKH input of the key needs non_witness_utxo
        p2wpkhWithOnlyNonWitnessUtxo | input 0: a P2WPKH input of the key needs witness_utxo
        codeSeparator                | input 0: the witness script holds OP_CODESEPARATOR
        noneOfTheKeys                | no input spends an output of the key
        secondInputWithoutUtxo       | input 1: has neither non_witness_utxo nor witness_utxo
        """)
    void refusesWhatBitcoinjsBuiltNamingTheInput(String name, String message) {
        byte[] psbt = Fixtures.refusals().get(name);

        assertThatThrownBy(() -> PartiallySignedTransaction.parse(psbt).inputsSpendableBy(KEY))
                .isInstanceOf(TransactionFormatException.class)
                .hasMessageStartingWith(message);
    }

    @Test
    void refusesANonWitnessUtxoThatIsNotTheTransactionTheInputSpends() {
        PsbtMaps mixed = PsbtMaps.of(Fixtures.named("mixed").psbt());
        // Input 4's previous transaction put in input 3, which spends another.
        mixed.input(3).put("00", mixed.input(4).get("00"));

        assertThatThrownBy(() -> PartiallySignedTransaction.parse(mixed.write()))
                .isInstanceOf(TransactionFormatException.class)
                .hasMessage("input 3: non_witness_utxo is not the transaction the input spends from (its txid is "
                        + "not the outpoint's)");
    }

    @Test
    void refusesAWitnessUtxoThatIsNotTheOutputOfTheNonWitnessUtxo() {
        PsbtMaps mixed = PsbtMaps.of(Fixtures.named("mixed").psbt());
        mixed.input(2).put("01", mixed.input(0).get("01"));

        assertThatThrownBy(() -> PartiallySignedTransaction.parse(mixed.write()))
                .isInstanceOf(TransactionFormatException.class)
                .hasMessage("input 2: witness_utxo is not the output that non_witness_utxo holds at the outpoint");
    }

    @Test
    void refusesARedeemScriptThatIsNotTheScriptOfTheP2shOutput() {
        PsbtMaps p2sh = PsbtMaps.of(Fixtures.named("p2shMultisig").psbt());
        p2sh.input(0).put("04", "51");

        assertThatThrownBy(() -> PartiallySignedTransaction.parse(p2sh.write()))
                .isInstanceOf(TransactionFormatException.class)
                .hasMessageStartingWith("input 0: redeem_script is not the script of the P2SH output it spends");
    }

    @Test
    void refusesAWitnessScriptThatIsNotTheScriptOfTheP2wshProgram() {
        PsbtMaps p2wsh = PsbtMaps.of(Fixtures.named("p2wshMultisig").psbt());
        p2wsh.input(0).put("05", "51");

        assertThatThrownBy(() -> PartiallySignedTransaction.parse(p2wsh.write()))
                .isInstanceOf(TransactionFormatException.class)
                .hasMessageStartingWith("input 0: witness_script is not the script of the P2WSH program it spends");
    }

    @Test
    void refusesTheKeysTaprootInputWhenItHoldsScriptPathData() {
        PsbtMaps p2tr = PsbtMaps.of(Fixtures.named("p2tr").psbt());
        p2tr.input(0).put("18", "00".repeat(32));

        assertThatThrownBy(() -> PartiallySignedTransaction.parse(p2tr.write()).inputsSpendableBy(KEY))
                .isInstanceOf(TransactionFormatException.class)
                .hasMessageStartingWith("input 0: holds taproot script-path data");
    }

    @Test
    void refusesTheKeysBip86OutputWhenTapInternalKeyNamesAnotherKey() {
        PsbtMaps p2tr = PsbtMaps.of(Fixtures.named("p2tr").psbt());
        // The x coordinate of the generator: a valid key, not K.
        p2tr.input(0).put("17", "79be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798");

        assertThatThrownBy(() -> PartiallySignedTransaction.parse(p2tr.write()).inputsSpendableBy(KEY))
                .isInstanceOf(TransactionFormatException.class)
                .hasMessage("input 0: spends the key's BIP-86 output, but tap_internal_key names another key");
    }

    @Test
    void refusesAPsbtWhoseOutputsSpendMoreThanItsInputsHold() {
        PsbtMaps p2wpkh = PsbtMaps.of(Fixtures.named("p2wpkh").psbt());
        // The witness_utxo says 1 000 sats where bitcoinjs put 120 000.
        String utxo = p2wpkh.input(0).get("01");
        p2wpkh.input(0).put("01", PsbtMaps.txOut(1_000, utxo.substring(18)));

        assertThatThrownBy(() -> PartiallySignedTransaction.parse(p2wpkh.write()))
                .isInstanceOf(TransactionFormatException.class)
                .hasMessage("the outputs (118500 sats) spend more than the inputs hold (1000 sats)");
    }

    @Test
    void refusesAnEntryBitcoinKmpWouldNotWriteBackUnchanged() {
        PsbtMaps p2wpkh = PsbtMaps.of(Fixtures.named("p2wpkh").psbt());
        // A taproot derivation path (no leaves, a fingerprint) with one byte too many: kmp reads the path four
        // bytes at a time and drops the fifth, so what it would write back is not what was given.
        p2wpkh.input(0)
                .put(
                        "16" + "79be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798",
                        "00" + "01020304" + "05");

        assertThatThrownBy(() -> PartiallySignedTransaction.parse(p2wpkh.write()))
                .isInstanceOf(TransactionFormatException.class)
                .hasMessage("input 0: the entry of key type 0x16 would not be written back unchanged by "
                        + "bitcoin-kmp, so Keyhaven cannot return this PSBT as it was given");
    }

    @Test
    void refusesAKeyThatIsNotACompressedSecp256k1Point() {
        PartiallySignedTransaction psbt =
                PartiallySignedTransaction.parse(Fixtures.named("p2wpkh").psbt());

        assertThatThrownBy(() -> psbt.inputsSpendableBy(new byte[33])).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> psbt.inputsSpendableBy(HEX.parseHex("04" + "00".repeat(64))))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void theRefusalsAreAboutTheKeyNotThePsbt() {
        // The same PSBTs parse, and another key has nothing refused in them but nothing to sign either.
        for (Map.Entry<String, byte[]> refusal : Fixtures.refusals().entrySet()) {
            if (refusal.getKey().equals("secondInputWithoutUtxo")) {
                continue;
            }
            PartiallySignedTransaction psbt = PartiallySignedTransaction.parse(refusal.getValue());
            assertThatThrownBy(() -> psbt.inputsSpendableBy(
                            HEX.parseHex("0279be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798")))
                    .as(refusal.getKey())
                    .hasMessageStartingWith("no input spends an output of the key");
        }
        assertThat(Fixtures.refusals()).hasSize(11);
    }
}
