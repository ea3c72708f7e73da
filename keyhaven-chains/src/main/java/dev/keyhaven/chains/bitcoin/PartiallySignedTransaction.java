package dev.keyhaven.chains.bitcoin;

import dev.keyhaven.chains.TransactionFormatException;
import dev.keyhaven.crypto.address.BitcoinNetwork;
import dev.keyhaven.policy.Value;
import dev.keyhaven.policy.ValueType;
import fr.acinq.bitcoin.TxOut;
import fr.acinq.bitcoin.psbt.Psbt;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * A PSBT sent to {@code sign_transaction}: parsed once, then asked which inputs a key spends, given the signatures
 * custody made for them, and read by policies as {@code bitcoin.tx}. Immutable.
 *
 * <p>Parsing refuses, besides malformed bytes: a transaction with no inputs or outputs or spending one output twice;
 * an input with no UTXO data (it could be the key's, and the fee could not be known), or with UTXO data or scripts
 * that contradict the outpoint or the output spent; outputs that spend more than the inputs hold; and a PSBT that
 * bitcoin-kmp would not write back entry for entry.
 */
public final class PartiallySignedTransaction {
    /** The shape of {@link #policyValue}, for the server's vocabulary of {@code bitcoin.tx}. */
    public static final ValueType POLICY_TYPE = BitcoinTxValue.TYPE;

    private final Psbt psbt;
    private final PsbtLayout layout;
    private final List<TxOut> spent;
    private final long fee;
    private final InputJudge judge;

    private PartiallySignedTransaction(Psbt psbt, PsbtLayout layout, List<TxOut> spent, long fee) {
        this.psbt = psbt;
        this.layout = layout;
        this.spent = spent;
        this.fee = fee;
        this.judge = new InputJudge(psbt, layout, spent);
    }

    /**
     * Reads a BIP-174 version 0 PSBT.
     *
     * @throws TransactionFormatException when anything in it is wrong, naming the map ("input 2", "output 0") and,
     *     for framing errors, the byte offset
     */
    public static PartiallySignedTransaction parse(byte[] psbt) {
        Objects.requireNonNull(psbt, "psbt");
        PsbtLayout layout = PsbtLayout.read(psbt);
        TransactionRules.requireWellFormed(layout.unsignedTransaction());
        SpentOutputs.requireConsistentUtxos(layout);
        Psbt decoded = PsbtCodec.read(psbt);
        layout.differenceFrom(PsbtLayout.read(PsbtCodec.write(decoded)), Map.of())
                .ifPresent(difference -> {
                    throw new TransactionFormatException(
                            difference + " would not be written back unchanged by bitcoin-kmp, "
                                    + "so Keyhaven cannot return this PSBT as it was given");
                });
        List<TxOut> spent = SpentOutputs.of(decoded);
        SpentOutputs.requireMatchingScripts(layout, spent);
        long fee = TransactionRules.fee(decoded.global.tx, spent);
        return new PartiallySignedTransaction(decoded, layout, spent, fee);
    }

    /**
     * The inputs the key can spend, with what to sign, in input order.
     *
     * @param publicKey33 the compressed secp256k1 key of signWith
     * @throws TransactionFormatException naming the input ("input 2: …") when an input is the key's but of a kind
     *     Keyhaven does not sign or without the data its signature needs; and when no input at all is the key's
     * @throws IllegalArgumentException when {@code publicKey33} is not a compressed secp256k1 key
     */
    public List<InputToSign> inputsSpendableBy(byte[] publicKey33) {
        SignerKey key = SignerKey.of(publicKey33);
        List<InputToSign> spendable = new ArrayList<>();
        for (int i = 0; i < psbt.inputs.size(); i++) {
            judge.judge(i, key).ifPresent(spendable::add);
        }
        if (spendable.isEmpty()) {
            throw new TransactionFormatException("no input spends an output of the key (its P2PKH, P2WPKH or BIP-86 "
                    + "P2TR output, or a P2SH or P2WSH script that pushes it)");
        }
        return List.copyOf(spendable);
    }

    /**
     * The PSBT with these signatures added: ECDSA ones to partial_sigs under their key, taproot ones as tap_key_sig.
     * Not finalised; every other entry is as it was received.
     *
     * @throws IllegalArgumentException when a signature is for an input that does not exist, is not its key's to sign,
     *     or does not verify against the input's sighash, or when an input is given two
     */
    public byte[] withSignatures(List<InputSignature> signatures) {
        Objects.requireNonNull(signatures, "signatures");
        if (signatures.isEmpty()) {
            throw new IllegalArgumentException("no signatures to add");
        }
        return new SignatureInsertion(psbt, layout, judge, spent).insert(signatures);
    }

    /**
     * {@code bitcoin.tx}.
     *
     * @param network how output addresses are written; empty makes every address unreadable (an OP_RETURN output's
     *     stays {@code ''}). The fee is unreadable unless every input's amount is proven: by its non_witness_utxo,
     *     or by every input being Taproot (see {@link SpentOutputs#firstUnprovenAmount}).
     */
    public Value policyValue(Optional<BitcoinNetwork> network) {
        Objects.requireNonNull(network, "network");
        Value feeValue = SpentOutputs.firstUnprovenAmount(psbt, spent)
                .<Value>map(input -> Value.unreadable("the fee depends on the amount of input " + input
                        + ", which only its witness_utxo gives and nothing "
                        + "proves (BIP-174's fee attack on segwit v0 inputs): give that input's non_witness_utxo"))
                .orElseGet(() -> Value.of(fee));
        return BitcoinTxValue.of(psbt.global.tx, feeValue, network);
    }
}
