package dev.keyhaven.chains.bitcoin;

import static dev.keyhaven.chains.bitcoin.Fixtures.HEX;
import static org.assertj.core.api.Assertions.assertThat;

import dev.keyhaven.crypto.address.BitcoinNetwork;
import dev.keyhaven.policy.Environment;
import dev.keyhaven.policy.EvaluationResult;
import dev.keyhaven.policy.ListValue;
import dev.keyhaven.policy.PolicyExpression;
import dev.keyhaven.policy.StructValue;
import dev.keyhaven.policy.UnreadableValue;
import dev.keyhaven.policy.Value;
import fr.acinq.bitcoin.Transaction;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code bitcoin.tx} of the bitcoinjs PSBTs, against what bitcoinjs reports of them (addresses from
 * {@code bitcoin.address.fromOutputScript} on testnet and regtest), and Turnkey's documented example policies.
 */
class PolicyValueTest {
    private static final String MIXED_TX_ID_0 = "dd86c5b0d42b6a007fb9fb445441a692acec0f432b54fd34bf0d2736dfbc76d0";
    private static final String P2PKH_TX_ID = "c23731e7895b421d9af61cf86d2071e8711b2e8a964ff8661e9be1781236d0e8";
    private static final String P2PKH_RECEIVER = "tb1qq3carpzrxynrtgjfck3p0tfqtuadp6xscrq2aq";
    private static final String P2PKH_CHANGE = "miVZKLMiyBNfMpJ58diWMhXKmmEi3akjMG";

    @Test
    void bindsTheVersionInputsOutputsLocktimeAndFeeOfTheMixedPsbt() {
        Value value = policyValue("mixed", Optional.of(BitcoinNetwork.TESTNET));

        assertThat(value)
                .isEqualTo(Value.struct(Map.of(
                        "version", Value.of("2"),
                        "inputs",
                                Value.list(List.of(
                                        input(MIXED_TX_ID_0),
                                        input("372696e50b1855a508f14bc03f67989338484372a1b48a492e6e886592c97af1"),
                                        input("c86c5c5c835324444ee263d7727da87bd3a6a8cd3ac6a7979657c982769b6053"),
                                        input("aa3b9d30219e092474ef9e4759b4cc3c60e2a6b54df9f249ee42cce9f273f096"),
                                        input("979fd0e4d41cfe3d15f8bfbd96e6a2abe92435922e6391165440cce61f890a76"))),
                        "outputs",
                                Value.list(List.of(
                                        output(
                                                40000,
                                                "00140471d18443312635a249c5a217ad205f3ad0e8d0",
                                                Value.of("tb1qq3carpzrxynrtgjfck3p0tfqtuadp6xscrq2aq"),
                                                "P2WPKH"),
                                        output(0, "6a086b6579686176656e", Value.of(""), "OP_RETURN"),
                                        output(
                                                5000,
                                                "512013fb8eac10a24911fba5438f0ccc86e9dcb79c5830bbdc2200f28ce6c95b2b3f",
                                                Value.of(
                                                        "tb1pz0acatqs5fy3r7a9gw8senyxa8wt08zcxzaacgsq72xwdj2m9vlsxxcnxf"),
                                                "P2TR"),
                                        output(
                                                6000,
                                                "a91433f3505fd57aeb54028aa74567734f8c44c8cae887",
                                                Value.of("2MwyuvpPGsctkgRmbtC86ad2G24TSk3GmKt"),
                                                "P2SH"),
                                        output(
                                                297500,
                                                "76a91420a4c7c7685aee667bd64cf1d8be58ca0a8532f088ac",
                                                Value.of("miVZKLMiyBNfMpJ58diWMhXKmmEi3akjMG"),
                                                "P2PKH"))),
                        "locktime", Value.struct(Map.of("amount", Value.of(2_500_000), "type", Value.of("Blocks"))),
                        "fee",
                                Value.unreadable(
                                        "the fee depends on the amount of input 0, which only its witness_utxo gives "
                                                + "and nothing proves (BIP-174's fee attack on segwit v0 inputs): give that input's "
                                                + "non_witness_utxo"))));
        assertThat(PartiallySignedTransaction.POLICY_TYPE.mismatch(value)).isEmpty();
    }

    @Test
    void writesSegwitAddressesWithRegtestsPrefix() {
        List<Value> outputs = outputs(policyValue("mixed", Optional.of(BitcoinNetwork.REGTEST)));

        assertThat(field(outputs.get(0), "address"))
                .isEqualTo(Value.of("bcrt1qq3carpzrxynrtgjfck3p0tfqtuadp6xs62e82f"));
        assertThat(field(outputs.get(2), "address"))
                .isEqualTo(Value.of("bcrt1pz0acatqs5fy3r7a9gw8senyxa8wt08zcxzaacgsq72xwdj2m9vlstlj4nn"));
        assertThat(field(outputs.get(4), "address")).isEqualTo(Value.of("miVZKLMiyBNfMpJ58diWMhXKmmEi3akjMG"));
    }

    @Test
    void addressesAreUnreadableWithoutANetworkExceptOpReturnsWhichHaveNone() {
        Value value = policyValue("mixed", Optional.empty());
        List<Value> outputs = outputs(value);

        assertThat(field(outputs.get(0), "address")).isEqualTo(Value.unreadable("the network of signWith is unknown"));
        assertThat(field(outputs.get(1), "address")).isEqualTo(Value.of(""));
        assertThat(field(outputs.get(0), "address_type")).isEqualTo(Value.of("P2WPKH"));
        assertThat(PartiallySignedTransaction.POLICY_TYPE.mismatch(value)).isEmpty();
    }

    @Test
    void aLocktimeFromFiveHundredMillionIsInSeconds() {
        PsbtMaps p2wpkh = PsbtMaps.of(Fixtures.named("p2wpkh").psbt());
        Transaction tx = Transaction.read(p2wpkh.global().get("00"));
        Transaction later = tx.copy(tx.version, tx.txIn, tx.txOut, 500_000_000L);
        p2wpkh.global().put("00", HEX.formatHex(Transaction.write(later)));

        Value value = PartiallySignedTransaction.parse(p2wpkh.write()).policyValue(Optional.empty());

        assertThat(field(value, "locktime"))
                .isEqualTo(Value.struct(Map.of("amount", Value.of(500_000_000), "type", Value.of("Seconds"))));
    }

    @Test
    void aBareMultisigOutputHasAnUnreadableAddressOnEveryNetwork() {
        PsbtMaps p2wpkh = PsbtMaps.of(Fixtures.named("p2wpkh").psbt());
        Transaction tx = Transaction.read(p2wpkh.global().get("00"));
        String bareMultisig = "51" + "21" + HEX.formatHex(Fixtures.KEY) + "51ae";
        p2wpkh.global()
                .put(
                        "00",
                        HEX.formatHex(Transaction.write(tx.updateOutputs(List.of(
                                tx.txOut.get(0), tx.txOut.get(1).updatePublicKeyScript(HEX.parseHex(bareMultisig)))))));

        Value output = outputs(PartiallySignedTransaction.parse(p2wpkh.write())
                        .policyValue(Optional.of(BitcoinNetwork.MAINNET)))
                .get(1);

        assertThat(field(output, "address")).isInstanceOf(UnreadableValue.class);
        assertThat(field(output, "address_type")).isEqualTo(Value.of("UNKNOWN"));
    }

    /**
     * Turnkey's examples (policies/examples/bitcoin.mdx) on the p2pkh PSBT: 2 outputs, 40 000 and 108 500 sats;
     * {@code <TX_ID>}, {@code <RECV>} and {@code <CHANGE>} stand for its input's txid and its outputs' addresses.
     */
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
        bitcoin.tx.outputs.all(o, o.value < 200000) | true
        bitcoin.tx.outputs.all(o, o.value < 100000) | false
        bitcoin.tx.fee <= 10000 | true
        bitcoin.tx.fee > 50000 | false
        bitcoin.tx.inputs.all(i, i.tx_id == '<TX_ID>' && i.vout == 1) | true
        bitcoin.tx.inputs.all(i, i.tx_id == '<TX_ID>' && i.vout == 0) | false
        bitcoin.tx.outputs.count() == 2 && bitcoin.tx.outputs.all(o, o.address in ['<RECV>','<CHANGE>']) | true
        bitcoin.tx.outputs.count() == 2 && bitcoin.tx.outputs.all(o, o.address in ['<RECV>']) | false
        bitcoin.tx.version == '2' && bitcoin.tx.locktime.type == 'Blocks' | true
        """)
    void turnkeysExamplePoliciesDecideOnTheP2pkhPsbt(String condition, boolean expected) {
        Value tx = policyValue("p2pkh", Optional.of(BitcoinNetwork.TESTNET));

        String filled = condition
                .replace("<TX_ID>", P2PKH_TX_ID)
                .replace("<RECV>", P2PKH_RECEIVER)
                .replace("<CHANGE>", P2PKH_CHANGE);
        EvaluationResult result = PolicyExpression.parse(filled)
                .evaluate(Environment.of(Map.of("bitcoin", Value.struct(Map.of("tx", tx)))));

        assertThat(result).isEqualTo(EvaluationResult.Decided.of(expected));
    }

    /** The two list policies of the brief: neither is decided when an output's address cannot be read. */
    @ParameterizedTest
    @CsvSource(delimiter = '|', textBlock = """
        bitcoin.tx.outputs.all(o, o.address in ['tb1qq3carpzrxynrtgjfck3p0tfqtuadp6xscrq2aq'])
        bitcoin.tx.outputs.any(o, o.address == 'bad')
        """)
    void addressPoliciesAreUndecidedWithoutTheNetwork(String condition) {
        Value tx = policyValue("p2pkh", Optional.empty());

        EvaluationResult result = PolicyExpression.parse(condition)
                .evaluate(Environment.of(Map.of("bitcoin", Value.struct(Map.of("tx", tx)))));

        assertThat(result).isNotInstanceOf(EvaluationResult.Decided.class);
    }

    private static Value policyValue(String name, Optional<BitcoinNetwork> network) {
        return PartiallySignedTransaction.parse(Fixtures.named(name).psbt()).policyValue(network);
    }

    private static Value input(String txId) {
        return Value.struct(Map.of("tx_id", Value.of(txId), "vout", Value.of(1), "sequence", Value.of(4294967293L)));
    }

    private static Value output(long value, String script, Value address, String type) {
        return Value.struct(Map.of(
                "value",
                Value.of(value),
                "script_pubkey",
                Value.of(script),
                "address",
                address,
                "address_type",
                Value.of(type)));
    }

    private static Value field(Value struct, String name) {
        return ((StructValue) struct).fields().get(name);
    }

    private static List<Value> outputs(Value tx) {
        return ((ListValue) field(tx, "outputs")).elements();
    }
}
