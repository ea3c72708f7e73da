package dev.keyhaven.chains.bitcoin;

import static dev.keyhaven.policy.ValueType.INT;
import static dev.keyhaven.policy.ValueType.STRING;

import dev.keyhaven.crypto.address.BitcoinNetwork;
import dev.keyhaven.policy.Value;
import dev.keyhaven.policy.ValueType;
import fr.acinq.bitcoin.Transaction;
import fr.acinq.bitcoin.TxIn;
import fr.acinq.bitcoin.TxOut;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@code bitcoin.tx}, the value Turnkey's policy language documents as BitcoinTransaction: the unsigned transaction's
 * version, inputs, outputs and locktime, and the fee its UTXO data gives.
 *
 * <p>An output's {@code address} is unreadable when the network is unknown, and when its script pays someone Keyhaven
 * cannot name (a bare key, bare multisig, a non-standard script): an allow-list policy
 * ({@code outputs.all(o, o.address in [...])}) then fails closed, and so does a deny-list
 * ({@code outputs.any(o, o.address == 'bad')}), which a bare key of the denied party would otherwise pass. An
 * OP_RETURN output pays no one and can be spent by no one: its address is {@code ''}, so a deny-list is not blocked
 * by a data carrier while an allow-list still refuses it.
 */
final class BitcoinTxValue {
    static final ValueType TYPE = ValueType.struct(Map.of(
            "version", STRING,
            "inputs", ValueType.listOf(ValueType.struct(Map.of("tx_id", STRING, "vout", INT, "sequence", INT))),
            "outputs",
                    ValueType.listOf(ValueType.struct(
                            Map.of("value", INT, "script_pubkey", STRING, "address", STRING, "address_type", STRING))),
            "locktime", ValueType.struct(Map.of("amount", INT, "type", STRING)),
            "fee", INT));

    /** Below this a locktime is a block height, from it a Unix time (Bitcoin Core's LOCKTIME_THRESHOLD). */
    private static final long LOCKTIME_THRESHOLD = 500_000_000L;

    private static final String NETWORK_UNKNOWN = "the network of signWith is unknown";
    private static final String NO_ADDRESS =
            "the output script has no address: it pays a key or script Keyhaven " + "cannot name";
    private static final HexFormat HEX = HexFormat.of();

    private BitcoinTxValue() {}

    static Value of(Transaction tx, Value fee, Optional<BitcoinNetwork> network) {
        List<Value> inputs = tx.txIn.stream().map(BitcoinTxValue::input).toList();
        List<Value> outputs =
                tx.txOut.stream().map(output -> output(output, network)).toList();
        return Value.struct(Map.of(
                "version", Value.of(Long.toString(tx.version)),
                "inputs", Value.list(inputs),
                "outputs", Value.list(outputs),
                "locktime",
                        Value.struct(Map.of(
                                "amount", Value.of(tx.lockTime),
                                "type", Value.of(tx.lockTime < LOCKTIME_THRESHOLD ? "Blocks" : "Seconds"))),
                "fee", fee));
    }

    private static Value input(TxIn input) {
        return Value.struct(Map.of(
                // TxId holds the hash in the reversed order explorers and wallets display.
                "tx_id", Value.of(HEX.formatHex(input.outPoint.txid.value.toByteArray())),
                "vout", Value.of(input.outPoint.index),
                "sequence", Value.of(input.sequence)));
    }

    private static Value output(TxOut output, Optional<BitcoinNetwork> network) {
        byte[] script = output.publicKeyScript.toByteArray();
        OutputScript kind = OutputScript.of(script);
        return Value.struct(Map.of(
                "value", Value.of(output.amount.toLong()),
                "script_pubkey", Value.of(HEX.formatHex(script)),
                "address", address(kind, network),
                "address_type", Value.of(kind.type())));
    }

    private static Value address(OutputScript kind, Optional<BitcoinNetwork> network) {
        if (OutputScript.OP_RETURN.equals(kind.type())) {
            return Value.of("");
        }
        if (OutputScript.UNKNOWN.equals(kind.type())) {
            return Value.unreadable(NO_ADDRESS);
        }
        return network.<Value>map(n -> Value.of(kind.address(n).orElseThrow()))
                .orElseGet(() -> Value.unreadable(NETWORK_UNKNOWN));
    }
}
