package dev.keyhaven.chains.bitcoin;

import static dev.keyhaven.chains.bitcoin.Fixtures.HEX;
import static dev.keyhaven.chains.bitcoin.Fixtures.KEY;
import static org.assertj.core.api.Assertions.assertThat;

import dev.keyhaven.chains.bitcoin.Fixtures.Case;
import dev.keyhaven.policy.StructValue;
import dev.keyhaven.policy.UnreadableValue;
import dev.keyhaven.policy.Value;
import fr.acinq.bitcoin.ByteVector;
import fr.acinq.bitcoin.OP_PUSHDATA;
import fr.acinq.bitcoin.Script;
import fr.acinq.bitcoin.Transaction;
import fr.acinq.bitcoin.TxIn;
import java.math.BigInteger;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * PSBTs built by bitcoinjs-lib 7.0.5, one per kind of input the key K spends and one mixing K's inputs with others'
 * (see {@code src/test/resources/bitcoin/README.md}): Keyhaven finds what bitcoinjs computes K signs, and the PSBT it
 * signs is one bitcoinjs validated, finalised and extracted.
 */
class BitcoinjsPsbtTest {

    static List<Case> cases() {
        return Fixtures.cases();
    }

    @ParameterizedTest
    @MethodSource("cases")
    void findsTheInputsAndSighashesBitcoinjsComputesForTheKey(Case c) {
        assertThat(PartiallySignedTransaction.parse(c.psbt()).inputsSpendableBy(KEY))
                .isEqualTo(c.toSign());
    }

    @ParameterizedTest
    @MethodSource("cases")
    void insertsSignaturesIntoThePsbtBitcoinjsFinalisedAndExtracted(Case c) {
        PartiallySignedTransaction psbt = PartiallySignedTransaction.parse(c.psbt());

        byte[] signed = psbt.withSignatures(Fixtures.signAsK(psbt.inputsSpendableBy(KEY)));

        assertThat(HEX.formatHex(signed)).isEqualTo(HEX.formatHex(c.signedPsbt()));
    }

    /** Each signature Keyhaven inserted is in the scriptSig or witness bitcoinjs built for its input. */
    @ParameterizedTest
    @MethodSource("cases")
    void theExtractedTransactionCarriesEachSignatureAndHasTheRecordedTxid(Case c) {
        Transaction extracted = Transaction.read(c.tx());
        assertThat(extracted.txid.toString()).isEqualTo(c.txid());

        for (InputSignature signature : Fixtures.signAsK(c.toSign())) {
            TxIn input = extracted.txIn.get(signature.index());
            ByteVector value = new ByteVector(signature.value());
            boolean inWitness = input.witness.stack.contains(value);
            boolean inScriptSig = Script.parse(input.signatureScript).stream()
                    .anyMatch(e -> e instanceof OP_PUSHDATA push && push.data.equals(value));
            assertThat(inWitness || inScriptSig)
                    .as("input %d carries the signature", signature.index())
                    .isTrue();
        }
    }

    @ParameterizedTest
    @MethodSource("cases")
    void theFeeIsWhatTheInputsHoldLessWhatTheOutputsPayWhenEveryAmountIsProven(Case c) {
        Value value = PartiallySignedTransaction.parse(c.psbt()).policyValue(Optional.empty());

        Value fee = ((StructValue) value).fields().get("fee");
        // bitcoinjs gives segwit v0 inputs witness_utxo alone: nothing proves those amounts, so neither the fee.
        if (Set.of("p2wpkh", "p2wshMultisig", "mixed").contains(c.name())) {
            assertThat(fee)
                    .isInstanceOfSatisfying(
                            UnreadableValue.class,
                            unreadable -> assertThat(unreadable.reason())
                                    .startsWith("the fee depends on the amount of input ")
                                    .endsWith(
                                            ", which only its witness_utxo gives and nothing proves (BIP-174's fee attack on "
                                                    + "segwit v0 inputs): give that input's non_witness_utxo"));
        } else {
            assertThat(fee).isEqualTo(Value.of(BigInteger.valueOf(c.fee())));
        }
        assertThat(PartiallySignedTransaction.POLICY_TYPE.mismatch(value)).isEmpty();
    }

    @Test
    void leavesAnInputBitcoinjsAlreadyFinalisedAlone() {
        PartiallySignedTransaction psbt = PartiallySignedTransaction.parse(Fixtures.finalised());

        List<InputToSign> toSign = psbt.inputsSpendableBy(KEY);

        assertThat(toSign).extracting(InputToSign::index).containsExactly(1);
        byte[] signed = psbt.withSignatures(Fixtures.signAsK(toSign));
        PsbtMaps before = PsbtMaps.of(Fixtures.finalised());
        PsbtMaps after = PsbtMaps.of(signed);
        assertThat(after.input(0)).isEqualTo(before.input(0));
        assertThat(after.input(1)).hasSize(before.input(1).size() + 1).containsAllEntriesOf(before.input(1));
    }
}
