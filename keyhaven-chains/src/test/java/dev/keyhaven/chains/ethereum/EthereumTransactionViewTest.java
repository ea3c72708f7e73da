package dev.keyhaven.chains.ethereum;

import static dev.keyhaven.chains.ethereum.EthereumVectors.abi;
import static dev.keyhaven.chains.ethereum.EthereumVectors.call;
import static dev.keyhaven.chains.ethereum.EthereumVectors.transaction;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.keyhaven.chains.TransactionFormatException;
import dev.keyhaven.crypto.eth.EthereumTransaction;
import dev.keyhaven.crypto.eth.Rlp;
import dev.keyhaven.policy.Environment;
import dev.keyhaven.policy.EvaluationError;
import dev.keyhaven.policy.EvaluationResult;
import dev.keyhaven.policy.PolicyExpression;
import dev.keyhaven.policy.StructValue;
import dev.keyhaven.policy.UnreadableValue;
import dev.keyhaven.policy.Value;
import java.math.BigInteger;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** {@code eth.tx} of transactions serialised by ethers, read with and without the called contract's ABI. */
class EthereumTransactionViewTest {
    private static final String FROM = "0x9d8A62f656a8d1615C1294fd71e9CFb3E4855A4F";
    private static final String WETH = "0xc02aaa39b223fe8d0a0e5c4f27ead9083c756cc2";

    static List<EthereumVectors.Transaction> transactions() {
        return EthereumVectors.transactions();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("transactions")
    void bindsTheFieldsEthersReadsFromEachTransactionType(EthereumVectors.Transaction vector) {
        EthereumTransaction tx = EthereumTransactionView.parseUnsigned(vector.unsigned());
        Map<String, Value> fields = fields(EthereumTransactionView.policyValue(tx, FROM, Optional.empty()));

        assertThat(tx.signingHash()).isEqualTo(vector.signingHash());
        assertThat(fields.get("from")).isEqualTo(Value.of(FROM.toLowerCase(Locale.ROOT)));
        assertThat(fields.get("to"))
                .isEqualTo(Value.of(vector.to() == null ? "" : vector.to().toLowerCase(Locale.ROOT)));
        assertThat(fields.get("data")).isEqualTo(Value.of(vector.data()));
        assertThat(fields.get("value")).isEqualTo(Value.of(vector.value()));
        assertThat(fields.get("gas")).isEqualTo(Value.of(vector.gasLimit()));
        assertThat(fields.get("nonce")).isEqualTo(Value.of(vector.nonce()));
        assertThat(fields.get("type")).isEqualTo(Value.of(vector.type() == 0 ? "LEGACY" : "TYPE_" + vector.type()));
        // Where ethers has no such field, the rules of EthereumTransactionView's class comment apply.
        BigInteger gasPrice = vector.gasPrice() != null ? vector.gasPrice() : vector.maxFeePerGas();
        assertThat(fields.get("gas_price")).isEqualTo(Value.of(gasPrice));
        assertThat(fields.get("max_fee_per_gas"))
                .isEqualTo(Value.of(vector.maxFeePerGas() != null ? vector.maxFeePerGas() : gasPrice));
        assertThat(fields.get("max_priority_fee_per_gas"))
                .isEqualTo(Value.of(vector.maxPriorityFeePerGas() != null ? vector.maxPriorityFeePerGas() : gasPrice));
        assertThat(fields.get("max_fee_per_blob_gas"))
                .isEqualTo(Value.of(vector.maxFeePerBlobGas() != null ? vector.maxFeePerBlobGas() : BigInteger.ZERO));
        if (vector.type() == 0 && vector.chainId().signum() == 0) {
            assertThat(fields.get("chain_id")).isInstanceOf(UnreadableValue.class);
        } else {
            assertThat(fields.get("chain_id")).isEqualTo(Value.of(vector.chainId()));
        }
        boolean isCall = vector.to() != null && vector.data().length() >= 2 + 8;
        for (String field : List.of("function_name", "function_signature", "contract_call_args")) {
            if (isCall) {
                assertThat(fields.get(field))
                        .as(field)
                        .isEqualTo(Value.unreadable("no smart contract interface (ABI) was uploaded for "
                                + vector.to().toLowerCase(Locale.ROOT)));
            } else {
                assertThat(fields).as(field).doesNotContainKey(field);
            }
        }
        assertThat(EthereumTransactionView.POLICY_TYPE.mismatch(Value.struct(fields)))
                .isEmpty();
    }

    @Test
    void readsTheCallOfALegacyTransactionWithTheTokensAbi() {
        EthereumTransaction tx = EthereumTransactionView.parseUnsigned(
                transaction("legacy with EIP-155 calling ERC-20 transfer").unsigned());

        Value value = EthereumTransactionView.policyValue(tx, FROM, Optional.of(abi("erc20.abi.json")));

        Map<String, Value> fields = fields(value);
        assertThat(fields.get("function_name")).isEqualTo(Value.of("transfer"));
        assertThat(fields.get("function_signature")).isEqualTo(Value.of("0xa9059cbb"));
        assertThat(fields.get("contract_call_args"))
                .isEqualTo(Value.struct(Map.of(
                        "to", Value.of("0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed"), "value", Value.of(2_500_000))));
        assertThat(fields.get("chain_id")).isEqualTo(Value.of(11155111));
        assertThat(EthereumTransactionView.POLICY_TYPE.mismatch(value)).isEmpty();
    }

    @Test
    void theDocsWethExamplesHoldOnAWethTransfer() {
        Value tx = policyValue(type2(WETH, BigInteger.ZERO, call("transfer", 1).calldata()), "weth.abi.json");

        assertThat(evaluate(
                        "eth.tx.contract_call_args['wad'] < 1000000000000000000 && "
                                + "eth.tx.contract_call_args['dst'] == '0x08d2b0a37f869ff76bacb5bab3278e26ab7067b7'",
                        tx))
                .isEqualTo(EvaluationResult.Decided.TRUE);
        assertThat(evaluate("eth.tx.to == '" + WETH + "' && eth.tx.data[0..10] == '0xa9059cbb'", tx))
                .isEqualTo(EvaluationResult.Decided.TRUE);
        assertThat(evaluate("eth.tx.chain_id == 11155111", tx)).isEqualTo(EvaluationResult.Decided.TRUE);
        assertThat(evaluate("eth.tx.function_name == 'transfer' && eth.tx.function_signature == '0xa9059cbb'", tx))
                .isEqualTo(EvaluationResult.Decided.TRUE);
    }

    @Test
    void theDocsValueExampleHoldsOnATwoEtherDeposit() {
        Value tx = policyValue(
                EthereumTransactionView.parseUnsigned(
                        transaction("type 2 WETH deposit").unsigned()),
                "weth.abi.json");

        assertThat(evaluate("eth.tx.value >= 1000000000000000000", tx)).isEqualTo(EvaluationResult.Decided.TRUE);
        assertThat(evaluate("eth.tx.function_name == 'deposit' && eth.tx.function_signature == '0xd0e30db0'", tx))
                .isEqualTo(EvaluationResult.Decided.TRUE);
    }

    @Test
    void theDocsExecuteBatchExampleReadsEachCallPositionally() {
        String target = "0x" + "a1".repeat(20);
        Value sameTarget =
                policyValue(type2(WETH, BigInteger.ZERO, call("executeBatch", 1).calldata()), "batch.abi.json");
        Value mixed =
                policyValue(type2(WETH, BigInteger.ZERO, call("executeBatch", 0).calldata()), "batch.abi.json");
        String policy = "eth.tx.function_name == 'executeBatch' && eth.tx.contract_call_args['calls'].all(call, "
                + "call[0] == '" + target + "' && call[1] == 0)";

        assertThat(evaluate(policy, sameTarget)).isEqualTo(EvaluationResult.Decided.TRUE);
        assertThat(evaluate(policy, mixed)).isEqualTo(EvaluationResult.Decided.FALSE);
        assertThat(evaluate(
                        "eth.tx.contract_call_args['calls'].count() == 3 && eth.tx.contract_call_args['calls']"
                                + ".any(call, call[1] == 1000000000000000000 && call[2] == '0xdeadbeef')",
                        mixed))
                .isEqualTo(EvaluationResult.Decided.TRUE);
        assertThat(evaluate("eth.tx.contract_call_args['calls'].all(call, call['target'] != '')", mixed))
                .isInstanceOf(EvaluationError.class);
    }

    @Test
    void aDenyAboutTheArgumentsOfACallWithoutAbiCannotBeDecided() {
        Value tx = EthereumTransactionView.policyValue(
                type2(WETH, BigInteger.ZERO, call("transfer", 1).calldata()), FROM, Optional.empty());

        assertThat(evaluate("eth.tx.contract_call_args['wad'] > 0", tx))
                .isInstanceOfSatisfying(
                        EvaluationError.class, e -> assertThat(e.kind()).isEqualTo(EvaluationError.Kind.UNREADABLE));
        assertThat(evaluate(
                        "eth.tx.to == '0x0000000000000000000000000000000000000000' && "
                                + "eth.tx.contract_call_args['wad'] > 0",
                        tx))
                .isEqualTo(EvaluationResult.Decided.FALSE);
    }

    @Test
    void aCallTheAbiDoesNotKnowIsUnreadableSayingWhy() {
        Value tx = policyValue(type2(WETH, BigInteger.ZERO, EthereumVectors.hex("0x12345678")), "weth.abi.json");

        assertThat(fields(tx).get("function_name"))
                .isEqualTo(Value.unreadable("the contract's ABI has no function with selector 0x12345678"));
        assertThat(fields(tx).get("contract_call_args")).isInstanceOf(UnreadableValue.class);
    }

    @Test
    void aDenyOnTheChainIdOfATransactionValidOnEveryChainCannotBeDecided() {
        Value tx = EthereumTransactionView.policyValue(
                EthereumTransactionView.parseUnsigned(
                        transaction("legacy without EIP-155").unsigned()),
                FROM,
                Optional.empty());

        assertThat(evaluate("eth.tx.chain_id == 1", tx))
                .isInstanceOfSatisfying(
                        EvaluationError.class, e -> assertThat(e.kind()).isEqualTo(EvaluationError.Kind.UNREADABLE));
    }

    @Test
    void aContractCreationHasAnEmptyRecipientAndNoCall() {
        Value tx = policyValue(
                EthereumTransactionView.parseUnsigned(
                        transaction("type 2 contract creation").unsigned()),
                "weth.abi.json");

        assertThat(evaluate("eth.tx.to == ''", tx)).isEqualTo(EvaluationResult.Decided.TRUE);
        assertThat(evaluate("eth.tx.function_name == 'deposit'", tx))
                .isInstanceOfSatisfying(
                        EvaluationError.class, e -> assertThat(e.kind()).isEqualTo(EvaluationError.Kind.MISSING_FIELD));
    }

    @Test
    void feeCapsOfALegacyTransactionAreItsGasPrice() {
        Value tx = EthereumTransactionView.policyValue(
                EthereumTransactionView.parseUnsigned(
                        transaction("type 1 with an access list").unsigned()),
                FROM,
                Optional.empty());

        assertThat(evaluate(
                        "eth.tx.max_fee_per_gas == 1500000000 && eth.tx.max_priority_fee_per_gas == 1500000000"
                                + " && eth.tx.gas_price == 1500000000 && eth.tx.max_fee_per_blob_gas == 0",
                        tx))
                .isEqualTo(EvaluationResult.Decided.TRUE);
    }

    @Test
    void refusesAFromThatIsNotAnAddress() {
        EthereumTransaction tx = EthereumTransactionView.parseUnsigned(
                transaction("type 2 WETH deposit").unsigned());

        assertThatThrownBy(() -> EthereumTransactionView.policyValue(
                        tx, "9d8a62f656a8d1615c1294fd71e9cfb3e4855a4f", Optional.empty()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("from must be");
        assertThatThrownBy(() -> EthereumTransactionView.policyValue(
                        tx, "0x9d8a62f656a8d1615c1294fd71e9cfb3e4855a4g", Optional.empty()))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void refusesMalformedTransactionsAsTransactionFormatExceptions() {
        assertThatThrownBy(() ->
                        EthereumTransactionView.parseUnsigned(HexFormat.of().parseHex("05c0")))
                .isInstanceOf(TransactionFormatException.class)
                .hasMessage("not an unsigned Ethereum transaction: unknown transaction type 0x5 (expected legacy, "
                        + "0x01, 0x02, 0x03 or 0x04)");
    }

    /** A type 2 transaction on Sepolia (chain 11155111). */
    private static EthereumTransaction type2(String to, BigInteger value, byte[] data) {
        byte[] body = Rlp.encodeList(
                Rlp.encodeInteger(BigInteger.valueOf(11155111)),
                Rlp.encodeInteger(BigInteger.ONE),
                Rlp.encodeInteger(BigInteger.ONE),
                Rlp.encodeInteger(BigInteger.TWO),
                Rlp.encodeInteger(BigInteger.valueOf(100_000)),
                Rlp.encodeBytes(EthereumVectors.hex(to)),
                Rlp.encodeInteger(value),
                Rlp.encodeBytes(data),
                Rlp.encodeList());
        byte[] unsigned = new byte[body.length + 1];
        unsigned[0] = 2;
        System.arraycopy(body, 0, unsigned, 1, body.length);
        return EthereumTransactionView.parseUnsigned(unsigned);
    }

    private static Value policyValue(EthereumTransaction tx, String abiFile) {
        Value value = EthereumTransactionView.policyValue(tx, FROM, Optional.of(abi(abiFile)));
        assertThat(EthereumTransactionView.POLICY_TYPE.mismatch(value)).isEmpty();
        return value;
    }

    private static EvaluationResult evaluate(String policy, Value tx) {
        return PolicyExpression.parse(policy).evaluate(Environment.of(Map.of("eth", Value.struct(Map.of("tx", tx)))));
    }

    private static Map<String, Value> fields(Value value) {
        return ((StructValue) value).fields();
    }
}
