package dev.keyhaven.chains.bitcoin;

import dev.keyhaven.chains.TransactionFormatException;
import dev.keyhaven.chains.bitcoin.InputToSign.Scheme;
import fr.acinq.bitcoin.Script;
import fr.acinq.bitcoin.ScriptElt;
import fr.acinq.bitcoin.Transaction;
import fr.acinq.bitcoin.TxOut;
import fr.acinq.bitcoin.XonlyPublicKey;
import fr.acinq.bitcoin.psbt.Input;
import fr.acinq.bitcoin.psbt.Psbt;
import java.util.List;
import java.util.Optional;

/**
 * Decides, input by input, whether an input is the key's and what it signs. An input is the key's when the output
 * it spends is the key's P2PKH, P2WPKH or BIP-86 P2TR output, or a P2SH or P2WSH whose redeem or witness script
 * pushes the key. The key's inputs of a kind Keyhaven does not sign (P2SH-wrapped segwit, a taproot script tree or
 * script path, a sighash type other than ALL for ECDSA or DEFAULT for taproot, an OP_CODESEPARATOR) are refused
 * rather than skipped, and so is a key's input that lacks the UTXO data its signature needs. Inputs that are
 * someone else's, and inputs already finalised, are not the key's to sign.
 */
final class InputJudge {
    private static final int TAP_SCRIPT_SIG = 0x14;
    private static final int TAP_LEAF_SCRIPT = 0x15;
    private static final int TAP_MERKLE_ROOT = 0x18;

    private final Psbt psbt;
    private final PsbtLayout layout;
    private final List<TxOut> spent;

    InputJudge(Psbt psbt, PsbtLayout layout, List<TxOut> spent) {
        this.psbt = psbt;
        this.layout = layout;
        this.spent = spent;
    }

    /** What the key signs in input {@code index}, or empty when the input is not the key's to sign. */
    Optional<InputToSign> judge(int index, SignerKey key) {
        Input input = psbt.inputs.get(index);
        if (isFinalised(input)) {
            return Optional.empty();
        }
        byte[] script = spent.get(index).publicKeyScript.toByteArray();
        if (key.isP2pkh(script)) {
            requireLegacyUtxo(index, OutputScript.P2PKH);
            requireSighashType(index, input, Sighashes.SIGHASH_ALL);
            return ecdsa(index, Sighashes.legacy(tx(), index, script, Sighashes.SIGHASH_ALL));
        }
        if (key.isP2shP2wpkh(script)) {
            throw wrappedSegwit(index, OutputScript.P2WPKH);
        }
        return switch (OutputScript.of(script).type()) {
            case OutputScript.P2SH -> p2sh(index, input, key);
            case OutputScript.P2WPKH -> key.isP2wpkh(script) ? p2wpkh(index, input, key) : Optional.empty();
            case OutputScript.P2WSH -> p2wsh(index, input, key);
            case OutputScript.P2TR -> p2tr(index, input, key, script);
            default -> Optional.empty();
        };
    }

    /**
     * The BIP-341 SIGHASH_DEFAULT key-path hash of a P2TR input, whoever's key it is: what a taproot signature inserted
     * into input {@code index} must sign.
     *
     * @throws TransactionFormatException when the input is not a P2TR key-path input Keyhaven signs
     */
    byte[] taprootKeyPathSighash(int index) {
        Input input = psbt.inputs.get(index);
        if (isFinalised(input)) {
            throw new TransactionFormatException(at(index) + "is already finalised");
        }
        if (!OutputScript.P2TR.equals(
                OutputScript.of(spent.get(index).publicKeyScript.toByteArray()).type())) {
            throw new TransactionFormatException(at(index) + "does not spend a P2TR output");
        }
        PsbtLayout.KeyValueMap map = layout.input(index);
        if (map.hasKeyType(TAP_LEAF_SCRIPT) || map.hasKeyType(TAP_MERKLE_ROOT) || map.hasKeyType(TAP_SCRIPT_SIG)) {
            throw new TransactionFormatException(at(index) + "holds taproot script-path data (tap_leaf_script, "
                    + "tap_merkle_root or tap_script_sig): Keyhaven signs the key path only");
        }
        requireWitnessUtxo(index, OutputScript.P2TR);
        requireSighashType(index, input, Sighashes.SIGHASH_DEFAULT);
        return Sighashes.taprootKeyPath(tx(), index, spent, Sighashes.SIGHASH_DEFAULT);
    }

    private Optional<InputToSign> p2sh(int index, Input input, SignerKey key) {
        List<ScriptElt> redeem = input.getRedeemScript();
        if (redeem == null) {
            return Optional.empty();
        }
        // The PSBT was refused at parse time unless kmp writes every script back byte for byte, so this is the
        // redeem script as given.
        byte[] redeemBytes = Script.write(redeem);
        OutputScript inner = OutputScript.of(redeemBytes);
        if (inner.witnessVersion() >= 0) {
            List<ScriptElt> witnessScript = input.getWitnessScript();
            if (key.isP2wpkh(redeemBytes)
                    || (OutputScript.P2WSH.equals(inner.type())
                            && witnessScript != null
                            && Scripts.pushes(witnessScript, key.publicKey()))) {
                throw wrappedSegwit(index, inner.type());
            }
            return Optional.empty();
        }
        if (!Scripts.pushes(redeem, key.publicKey())) {
            return Optional.empty();
        }
        requireLegacyUtxo(index, OutputScript.P2SH);
        requireNoCodeSeparator(index, redeem, "redeem script");
        requireSighashType(index, input, Sighashes.SIGHASH_ALL);
        return ecdsa(index, Sighashes.legacy(tx(), index, redeemBytes, Sighashes.SIGHASH_ALL));
    }

    private Optional<InputToSign> p2wpkh(int index, Input input, SignerKey key) {
        requireWitnessUtxo(index, OutputScript.P2WPKH);
        requireSighashType(index, input, Sighashes.SIGHASH_ALL);
        return ecdsa(
                index, Sighashes.segwitV0(tx(), index, key.p2wpkhScriptCode(), amount(index), Sighashes.SIGHASH_ALL));
    }

    private Optional<InputToSign> p2wsh(int index, Input input, SignerKey key) {
        List<ScriptElt> witnessScript = input.getWitnessScript();
        if (witnessScript == null || !Scripts.pushes(witnessScript, key.publicKey())) {
            return Optional.empty();
        }
        requireWitnessUtxo(index, OutputScript.P2WSH);
        requireNoCodeSeparator(index, witnessScript, "witness script");
        requireSighashType(index, input, Sighashes.SIGHASH_ALL);
        return ecdsa(
                index,
                Sighashes.segwitV0(tx(), index, Script.write(witnessScript), amount(index), Sighashes.SIGHASH_ALL));
    }

    private Optional<InputToSign> p2tr(int index, Input input, SignerKey key, byte[] script) {
        XonlyPublicKey internalKey = input.getTaprootInternalKey();
        boolean internalIsKey = internalKey != null && key.isXOnly(internalKey.value.toByteArray());
        if (!key.isP2tr(script)) {
            if (internalIsKey) {
                throw new TransactionFormatException(at(index) + "tap_internal_key is the key's, but the output is "
                        + "not its BIP-86 output: it commits to a script tree, which Keyhaven does not sign");
            }
            return Optional.empty();
        }
        if (internalKey != null && !internalIsKey) {
            throw new TransactionFormatException(
                    at(index) + "spends the key's BIP-86 output, but tap_internal_key " + "names another key");
        }
        return Optional.of(new InputToSign(index, Scheme.TAPROOT_KEY_PATH, taprootKeyPathSighash(index)));
    }

    private static boolean isFinalised(Input input) {
        return input.getScriptSig() != null || input.getScriptWitness() != null;
    }

    private void requireLegacyUtxo(int index, String type) {
        PsbtLayout.KeyValueMap map = layout.input(index);
        if (PsbtLayout.value(map, SpentOutputs.NON_WITNESS_UTXO).isEmpty()) {
            throw new TransactionFormatException(at(index) + "a " + type + " input of the key needs non_witness_utxo "
                    + "(the previous transaction): a legacy signature does not commit to the amount it spends");
        }
        if (PsbtLayout.value(map, SpentOutputs.WITNESS_UTXO).isPresent()) {
            throw new TransactionFormatException(at(index) + "a " + type + " input of the key must not carry "
                    + "witness_utxo, which marks an input as segwit");
        }
    }

    private void requireWitnessUtxo(int index, String type) {
        if (PsbtLayout.value(layout.input(index), SpentOutputs.WITNESS_UTXO).isEmpty()) {
            throw new TransactionFormatException(at(index) + "a " + type + " input of the key needs witness_utxo");
        }
    }

    private static void requireSighashType(int index, Input input, int signed) {
        Integer asked = input.getSighashType();
        if (asked != null && asked != signed) {
            throw new TransactionFormatException(String.format(
                    "%sasks for sighash type 0x%x; Keyhaven signs %s only",
                    at(index),
                    asked,
                    signed == Sighashes.SIGHASH_ALL
                            ? "SIGHASH_ALL (ECDSA inputs)"
                            : "SIGHASH_DEFAULT (taproot inputs)"));
        }
    }

    private static void requireNoCodeSeparator(int index, List<ScriptElt> script, String which) {
        if (Scripts.hasCodeSeparator(script)) {
            throw new TransactionFormatException(at(index) + "the " + which + " holds OP_CODESEPARATOR, so what a "
                    + "signature commits to depends on the spending path, which Keyhaven does not guess");
        }
    }

    private static TransactionFormatException wrappedSegwit(int index, String inner) {
        return new TransactionFormatException(at(index) + "pays the key through P2SH-wrapped segwit (P2SH-" + inner
                + "), which Keyhaven does not sign");
    }

    private static Optional<InputToSign> ecdsa(int index, byte[] sighash) {
        return Optional.of(new InputToSign(index, Scheme.ECDSA, sighash));
    }

    private long amount(int index) {
        return spent.get(index).amount.toLong();
    }

    private Transaction tx() {
        return psbt.global.tx;
    }

    private static String at(int index) {
        return "input " + index + ": ";
    }
}
