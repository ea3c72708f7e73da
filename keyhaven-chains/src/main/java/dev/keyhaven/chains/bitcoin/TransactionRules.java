package dev.keyhaven.chains.bitcoin;

import dev.keyhaven.chains.TransactionFormatException;
import fr.acinq.bitcoin.OutPoint;
import fr.acinq.bitcoin.Transaction;
import fr.acinq.bitcoin.TxOut;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Consensus rules of the unsigned transaction that Keyhaven relies on to report it truthfully: it spends something
 * and pays something, spends no output twice (which would count that output's value twice in the fee), and moves
 * amounts between 0 and 21 million bitcoin that the inputs cover.
 */
final class TransactionRules {
    /** 21 million bitcoin in satoshis: Bitcoin Core's MAX_MONEY. */
    static final long MAX_MONEY = 21_000_000L * 100_000_000L;
    /**
     * Inputs and outputs Keyhaven reads at most. bitcoin-kmp's BIP-143 hash copies its buffers once per input and
     * output it adds, so signing every input of a segwit transaction takes time cubic in these numbers: 500 inputs
     * and 500 outputs take about a second here, 2 400 inputs (the most a standard transaction holds) minutes.
     */
    static final int MAX_INPUTS = 500;

    static final int MAX_OUTPUTS = 500;

    private TransactionRules() {}

    static void requireWellFormed(Transaction tx) {
        if (tx.txIn.isEmpty()) {
            throw new TransactionFormatException("the unsigned transaction has no inputs");
        }
        if (tx.txOut.isEmpty()) {
            throw new TransactionFormatException("the unsigned transaction has no outputs");
        }
        if (tx.txIn.size() > MAX_INPUTS || tx.txOut.size() > MAX_OUTPUTS) {
            throw new TransactionFormatException("the unsigned transaction has " + tx.txIn.size() + " inputs and "
                    + tx.txOut.size() + " outputs; Keyhaven signs transactions of at most " + MAX_INPUTS
                    + " inputs and " + MAX_OUTPUTS + " outputs");
        }
        Map<OutPoint, Integer> spentBy = new HashMap<>();
        for (int i = 0; i < tx.txIn.size(); i++) {
            Integer earlier = spentBy.putIfAbsent(tx.txIn.get(i).outPoint, i);
            if (earlier != null) {
                throw new TransactionFormatException("input " + i + ": spends the same output as input " + earlier);
            }
        }
        long total = 0;
        for (int i = 0; i < tx.txOut.size(); i++) {
            total += requireAmount(tx.txOut.get(i), "output " + i + ": its value");
            if (total > MAX_MONEY) {
                throw new TransactionFormatException(
                        "output " + i + ": the outputs add up to more than 21 000 000 BTC");
            }
        }
    }

    /** A spent output's or an output's value, in satoshis, once it is known to lie in [0, MAX_MONEY]. */
    static long requireAmount(TxOut output, String what) {
        long amount = output.amount.toLong();
        if (amount < 0 || amount > MAX_MONEY) {
            throw new TransactionFormatException(what + " is outside 0 to 21 000 000 BTC");
        }
        return amount;
    }

    /**
     * Σ spent − Σ outputs, in satoshis.
     *
     * @throws TransactionFormatException when the outputs spend more than the inputs hold
     */
    static long fee(Transaction tx, List<TxOut> spent) {
        long in = 0;
        for (int i = 0; i < spent.size(); i++) {
            in = Math.addExact(in, requireAmount(spent.get(i), "input " + i + ": the value of the output it spends"));
        }
        long out = 0;
        for (TxOut output : tx.txOut) {
            out += output.amount.toLong();
        }
        if (out > in) {
            throw new TransactionFormatException(
                    "the outputs (" + out + " sats) spend more than the inputs hold (" + in + " sats)");
        }
        return in - out;
    }
}
