package dev.keyhaven.chains.bitcoin;

import dev.keyhaven.chains.TransactionFormatException;
import dev.keyhaven.crypto.Digests;
import fr.acinq.bitcoin.OutPoint;
import fr.acinq.bitcoin.Transaction;
import fr.acinq.bitcoin.TxIn;
import fr.acinq.bitcoin.TxOut;
import fr.acinq.bitcoin.psbt.Input;
import fr.acinq.bitcoin.psbt.Psbt;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * The output each input spends (its UTXO), which says whose the input is, what its signature commits to and what
 * the fee is. It comes from the input's non_witness_utxo, the whole previous transaction, which is only believed when
 * its txid is the outpoint's; or else from its witness_utxo, the output alone. An input with neither is refused: it
 * could be the key's, and the fee could not be known.
 */
final class SpentOutputs {
    static final int NON_WITNESS_UTXO = 0x00;
    static final int WITNESS_UTXO = 0x01;
    static final int REDEEM_SCRIPT = 0x04;
    static final int WITNESS_SCRIPT = 0x05;

    private SpentOutputs() {}

    /**
     * Checks, before bitcoin-kmp reads the PSBT (which refuses the same things without saying which input), that each
     * non_witness_utxo is the transaction its input spends from and agrees with the input's witness_utxo.
     */
    static void requireConsistentUtxos(PsbtLayout layout) {
        List<TxIn> inputs = layout.unsignedTransaction().txIn;
        for (int i = 0; i < inputs.size(); i++) {
            OutPoint outPoint = inputs.get(i).outPoint;
            Optional<byte[]> previous = PsbtLayout.value(layout.input(i), NON_WITNESS_UTXO);
            if (previous.isEmpty()) {
                continue;
            }
            Transaction tx;
            try {
                tx = Transaction.read(previous.get());
            } catch (RuntimeException e) {
                throw new TransactionFormatException("input " + i + ": non_witness_utxo is not a transaction", e);
            }
            if (!tx.txid.equals(outPoint.txid)) {
                throw new TransactionFormatException("input " + i + ": non_witness_utxo is not the transaction the "
                        + "input spends from (its txid is not the outpoint's)");
            }
            if (outPoint.index >= tx.txOut.size()) {
                throw new TransactionFormatException(
                        "input " + i + ": non_witness_utxo has no output " + outPoint.index);
            }
            Optional<byte[]> witnessUtxo = PsbtLayout.value(layout.input(i), WITNESS_UTXO);
            if (witnessUtxo.isPresent()
                    && !Arrays.equals(witnessUtxo.get(), TxOut.write(tx.txOut.get((int) outPoint.index)))) {
                throw new TransactionFormatException("input " + i + ": witness_utxo is not the output that "
                        + "non_witness_utxo holds at the outpoint");
            }
        }
    }

    /**
     * The first input whose amount nothing proves, if any. A non_witness_utxo is proven by its txid. A witness_utxo
     * alone is not: a segwit v0 signature commits to its own input's amount only, so another input's amount may be
     * a lie (BIP-174's fee attack), unless every input spends a Taproot output, whose BIP-341 signatures commit to
     * every input's amount and script.
     */
    static Optional<Integer> firstUnprovenAmount(Psbt psbt, List<TxOut> spent) {
        boolean allTaproot = spent.stream()
                .allMatch(output -> OutputScript.P2TR.equals(
                        OutputScript.of(output.publicKeyScript.toByteArray()).type()));
        if (allTaproot) {
            return Optional.empty();
        }
        for (int i = 0; i < psbt.inputs.size(); i++) {
            if (psbt.inputs.get(i).getNonWitnessUtxo() == null) {
                return Optional.of(i);
            }
        }
        return Optional.empty();
    }

    /** The output each input spends, in input order. */
    static List<TxOut> of(Psbt psbt) {
        List<TxOut> spent = new ArrayList<>(psbt.inputs.size());
        for (int i = 0; i < psbt.inputs.size(); i++) {
            Input input = psbt.inputs.get(i);
            TxOut output;
            if (input.getNonWitnessUtxo() != null) {
                output = input.getNonWitnessUtxo().txOut.get((int) psbt.global.tx.txIn.get(i).outPoint.index);
            } else if (input.getWitnessUtxo() != null) {
                output = input.getWitnessUtxo();
            } else {
                throw new TransactionFormatException("input " + i + ": has neither non_witness_utxo nor witness_utxo, "
                        + "so Keyhaven can tell neither whose it is nor the fee");
            }
            TransactionRules.requireAmount(output, "input " + i + ": the value of the output it spends");
            spent.add(output);
        }
        return List.copyOf(spent);
    }

    /**
     * A redeem_script must be the script of the P2SH output spent, and a witness_script that of the P2WSH program
     * (the output's own, or the redeem script's when the P2WSH is wrapped in P2SH): otherwise the input says one thing
     * and would be judged by another.
     */
    static void requireMatchingScripts(PsbtLayout layout, List<TxOut> spent) {
        for (int i = 0; i < spent.size(); i++) {
            byte[] spentScript = spent.get(i).publicKeyScript.toByteArray();
            Optional<byte[]> redeem = PsbtLayout.value(layout.input(i), REDEEM_SCRIPT);
            if (redeem.isPresent() && !Arrays.equals(spentScript, Scripts.p2sh(redeem.get()))) {
                throw new TransactionFormatException(
                        "input " + i + ": redeem_script is not the script of the P2SH " + "output it spends");
            }
            Optional<byte[]> witnessScript = PsbtLayout.value(layout.input(i), WITNESS_SCRIPT);
            if (witnessScript.isPresent()) {
                byte[] program = redeem.orElse(spentScript);
                if (!Arrays.equals(program, Scripts.p2wsh(Digests.sha256(witnessScript.get())))) {
                    throw new TransactionFormatException(
                            "input " + i + ": witness_script is not the script of the " + "P2WSH program it spends");
                }
            }
        }
    }
}
