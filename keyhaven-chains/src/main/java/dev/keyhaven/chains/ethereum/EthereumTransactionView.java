package dev.keyhaven.chains.ethereum;

import dev.keyhaven.chains.TransactionFormatException;
import dev.keyhaven.crypto.eth.EthereumTransaction;
import dev.keyhaven.policy.Value;
import dev.keyhaven.policy.ValueType;
import java.math.BigInteger;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * {@code eth.tx}: what policies read of an unsigned Ethereum transaction, with Turnkey's field names.
 *
 * <p>Addresses ({@code from}, {@code to}, and {@code address} arguments) are lowercase: it is the one spelling of
 * an address that needs no computation to produce, the one Turnkey's SDK examples compare against, and what
 * {@code toLowerCase()} gives a policy author from any other. The language compares strings exactly, so a policy
 * written with an EIP-55 checksummed literal does not match; the server may compare case-insensitively later.
 *
 * <p>Fields that would be absent for some types are bound on every type wherever a DENY on them must not silently
 * not apply: the fee caps of legacy and type 1 transactions are their gas price (what the sender may pay per gas,
 * as EIP-1559 treats them), the blob fee cap is 0 except on type 3, and the chain id of a legacy transaction
 * without EIP-155 is unreadable, because it is valid on every chain.
 */
public final class EthereumTransactionView {
    /** The shape of {@code eth.tx}. */
    public static final ValueType POLICY_TYPE = ValueType.struct(Map.ofEntries(
            Map.entry("from", ValueType.STRING),
            Map.entry("to", ValueType.STRING),
            Map.entry("data", ValueType.STRING),
            Map.entry("value", ValueType.INT),
            Map.entry("gas", ValueType.INT),
            Map.entry("nonce", ValueType.INT),
            Map.entry("chain_id", ValueType.INT),
            Map.entry("gas_price", ValueType.INT),
            Map.entry("max_fee_per_gas", ValueType.INT),
            Map.entry("max_priority_fee_per_gas", ValueType.INT),
            Map.entry("max_fee_per_blob_gas", ValueType.INT),
            Map.entry("type", ValueType.STRING),
            Map.entry("function_name", ValueType.STRING),
            Map.entry("function_signature", ValueType.STRING),
            Map.entry("contract_call_args", ValueType.mapOf(ValueType.ANY))));

    private static final int SELECTOR_LENGTH = 4;
    private static final int ADDRESS_HEX_DIGITS = 40;

    private EthereumTransactionView() {}

    /**
     * Parses an unsigned transaction (legacy, EIP-155 or types 1–4) as {@code sign_transaction} receives it.
     *
     * @throws TransactionFormatException saying what is wrong with it
     */
    public static EthereumTransaction parseUnsigned(byte[] unsigned) {
        try {
            return EthereumTransaction.parseUnsigned(unsigned);
        } catch (IllegalArgumentException e) {
            throw new TransactionFormatException("not an unsigned Ethereum transaction: " + e.getMessage(), e);
        }
    }

    /**
     * {@code eth.tx} for {@code tx}.
     *
     * @param from the signing key's address ({@code 0x} and 40 hex digits, any case)
     * @param abi  the uploaded ABI of the contract at the transaction's {@code to}, if any
     * @throws IllegalArgumentException if {@code from} is not an address
     */
    public static Value policyValue(EthereumTransaction tx, String from, Optional<ContractAbi> abi) {
        Map<String, Value> fields = new HashMap<>();
        fields.put("from", Value.of(address(from)));
        String to = tx.to().map(Hex::prefixed).orElse("");
        fields.put("to", Value.of(to));
        byte[] data = tx.data();
        fields.put("data", Value.of(Hex.prefixed(data)));
        fields.put("value", Value.of(tx.value()));
        fields.put("gas", Value.of(tx.gasLimit()));
        fields.put("nonce", Value.of(tx.nonce()));
        fields.put(
                "chain_id",
                tx.chainId()
                        .<Value>map(Value::of)
                        .orElse(
                                Value.unreadable(
                                        "a legacy transaction without EIP-155 replay protection has no chain id: it is valid on every chain")));
        fields.put("type", Value.of(typeName(tx.type())));
        fields.putAll(fees(tx));
        if (!to.isEmpty() && data.length >= SELECTOR_LENGTH) {
            fields.putAll(call(data, to, abi));
        }
        return Value.struct(fields);
    }

    private static Map<String, Value> fees(EthereumTransaction tx) {
        // Type 2 and later have the EIP-1559 pair; legacy and type 1 have a gas price that is both caps at once.
        BigInteger maxFee = tx.maxFeePerGas().or(tx::gasPrice).orElseThrow();
        BigInteger gasPrice = tx.gasPrice().orElse(maxFee);
        BigInteger priorityFee = tx.maxPriorityFeePerGas().orElse(gasPrice);
        return Map.of(
                "gas_price", Value.of(gasPrice),
                "max_fee_per_gas", Value.of(maxFee),
                "max_priority_fee_per_gas", Value.of(priorityFee),
                "max_fee_per_blob_gas", Value.of(tx.maxFeePerBlobGas().orElse(BigInteger.ZERO)));
    }

    /** The call's three fields: read with the ABI, or unreadable (the call exists; a DENY about it fails closed). */
    private static Map<String, Value> call(byte[] data, String to, Optional<ContractAbi> abi) {
        ContractCall call = abi.map(contract -> contract.read(data))
                .orElseGet(
                        () -> new ContractCall.Unreadable("no smart contract interface (ABI) was uploaded for " + to));
        return switch (call) {
            case ContractCall.Decoded(String name, String selector, Map<String, Value> arguments) ->
                Map.of(
                        "function_name", Value.of(name),
                        "function_signature", Value.of(selector),
                        "contract_call_args", Value.struct(arguments));
            case ContractCall.Unreadable(String reason) ->
                Map.of(
                        "function_name", Value.unreadable(reason),
                        "function_signature", Value.unreadable(reason),
                        "contract_call_args", Value.unreadable(reason));
        };
    }

    private static String typeName(int type) {
        return switch (type) {
            case 0 -> "LEGACY";
            case 1, 2, 3, 4 -> "TYPE_" + type;
            default -> throw new IllegalArgumentException("unknown transaction type " + type);
        };
    }

    private static String address(String address) {
        String digits = address.startsWith("0x") ? address.substring(2) : "";
        if (digits.length() != ADDRESS_HEX_DIGITS || !digits.chars().allMatch(HexFormat::isHexDigit)) {
            throw new IllegalArgumentException("from must be 0x and 40 hex digits");
        }
        return "0x" + digits.toLowerCase(Locale.ROOT);
    }
}
