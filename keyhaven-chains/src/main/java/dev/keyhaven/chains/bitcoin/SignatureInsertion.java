package dev.keyhaven.chains.bitcoin;

import dev.keyhaven.chains.TransactionFormatException;
import dev.keyhaven.chains.bitcoin.InputToSign.Scheme;
import dev.keyhaven.crypto.EcCurve;
import dev.keyhaven.crypto.sign.Bip340Schnorr;
import fr.acinq.bitcoin.ByteVector;
import fr.acinq.bitcoin.PublicKey;
import fr.acinq.bitcoin.TxOut;
import fr.acinq.bitcoin.psbt.Input;
import fr.acinq.bitcoin.psbt.Input.NonWitnessInput.PartiallySignedNonWitnessInput;
import fr.acinq.bitcoin.psbt.Input.WitnessInput.PartiallySignedWitnessInput;
import fr.acinq.bitcoin.psbt.Psbt;
import java.io.IOException;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.bouncycastle.crypto.params.ECPublicKeyParameters;
import org.bouncycastle.crypto.signers.ECDSASigner;
import org.bouncycastle.crypto.signers.StandardDSAEncoding;

/**
 * Puts custody's signatures into the PSBT: an ECDSA signature into partial_sigs under its key, a taproot one into
 * tap_key_sig, nothing else. Each is first checked against what that input signs (a signature that does not verify,
 * or one for an input that is not its key's, is a fault of the caller and is never handed out), and the PSBT
 * bitcoin-kmp writes is read back to prove it differs from the one received by those entries alone.
 */
final class SignatureInsertion {
    private static final int PARTIAL_SIG = 0x02;
    private static final int TAP_KEY_SIG = 0x13;

    private final Psbt psbt;
    private final PsbtLayout layout;
    private final InputJudge judge;
    private final List<TxOut> spent;

    SignatureInsertion(Psbt psbt, PsbtLayout layout, InputJudge judge, List<TxOut> spent) {
        this.psbt = psbt;
        this.layout = layout;
        this.judge = judge;
        this.spent = spent;
    }

    byte[] insert(List<InputSignature> signatures) {
        List<Input> inputs = new ArrayList<>(psbt.inputs);
        Map<Integer, Map<ByteBuffer, ByteBuffer>> added = new HashMap<>();
        for (InputSignature signature : signatures) {
            int index = signature.index();
            if (index >= inputs.size()) {
                throw new IllegalArgumentException("there is no input " + index);
            }
            if (added.containsKey(index)) {
                throw new IllegalArgumentException("input " + index + " is given two signatures");
            }
            byte[] value = signature.value();
            Input input = inputs.get(index);
            if (signature.scheme() == Scheme.ECDSA) {
                byte[] key = signature.publicKey33();
                requireValidEcdsa(index, key, value);
                inputs.set(index, withPartialSig(input, new PublicKey(key), new ByteVector(value)));
                added.put(index, Map.of(entryKey(PARTIAL_SIG, key), ByteBuffer.wrap(value)));
            } else {
                requireValidSchnorr(index, value);
                inputs.set(index, withTapKeySig(input, new ByteVector(value)));
                added.put(index, Map.of(entryKey(TAP_KEY_SIG, new byte[0]), ByteBuffer.wrap(value)));
            }
        }
        byte[] signed = PsbtCodec.write(new Psbt(psbt.global, inputs, psbt.outputs));
        layout.differenceFrom(PsbtLayout.read(signed), added).ifPresent(difference -> {
            throw new IllegalStateException("bitcoin-kmp changed more than the signatures: " + difference);
        });
        return signed;
    }

    private void requireValidEcdsa(int index, byte[] publicKey33, byte[] value) {
        InputToSign target;
        try {
            target = judge.judge(index, SignerKey.of(publicKey33))
                    .filter(t -> t.scheme() == Scheme.ECDSA)
                    .orElseThrow(() ->
                            new IllegalArgumentException("input " + index + " is not one the key signs with ECDSA"));
        } catch (TransactionFormatException e) {
            throw new IllegalArgumentException(
                    "input " + index + " cannot take the key's signature: " + e.getMessage(), e);
        }
        BigInteger n = EcCurve.SECP256K1.order();
        BigInteger[] rs;
        try {
            rs = StandardDSAEncoding.INSTANCE.decode(n, Arrays.copyOf(value, value.length - 1));
        } catch (IOException | IllegalArgumentException e) {
            throw new IllegalArgumentException("the signature for input " + index + " is not strict DER", e);
        }
        if (rs[1].compareTo(n.shiftRight(1)) > 0) {
            // BIP-146 LOW_S: a high s makes the transaction non-standard, so nodes would not relay it.
            throw new IllegalArgumentException("the signature for input " + index + " has a high s");
        }
        ECDSASigner verifier = new ECDSASigner();
        verifier.init(
                false,
                new ECPublicKeyParameters(EcCurve.SECP256K1.decodePoint(publicKey33), EcCurve.SECP256K1.domain()));
        if (!verifier.verifySignature(target.sighash(), rs[0], rs[1])) {
            throw new IllegalArgumentException(
                    "the signature for input " + index + " does not verify against the input's sighash and the key");
        }
    }

    private void requireValidSchnorr(int index, byte[] signature64) {
        byte[] sighash;
        try {
            sighash = judge.taprootKeyPathSighash(index);
        } catch (TransactionFormatException e) {
            throw new IllegalArgumentException(
                    "input " + index + " cannot take a taproot key-path signature: " + e.getMessage(), e);
        }
        byte[] outputKey =
                OutputScript.of(spent.get(index).publicKeyScript.toByteArray()).payload();
        if (!Bip340Schnorr.verify(outputKey, sighash, signature64)) {
            throw new IllegalArgumentException(
                    "the signature for input " + index + " does not verify against the input's sighash and output key");
        }
    }

    private static Input withPartialSig(Input input, PublicKey key, ByteVector signature) {
        Map<PublicKey, ByteVector> sigs = new LinkedHashMap<>(input.getPartialSigs());
        sigs.put(key, signature);
        return switch (input) {
            case PartiallySignedWitnessInput in ->
                new PartiallySignedWitnessInput(
                        in.getTxOut(),
                        in.getNonWitnessUtxo(),
                        in.getSighashType(),
                        sigs,
                        in.getDerivationPaths(),
                        in.getRedeemScript(),
                        in.getWitnessScript(),
                        in.getRipemd160(),
                        in.getSha256(),
                        in.getHash160(),
                        in.getHash256(),
                        in.getTaprootKeySignature(),
                        in.getTaprootDerivationPaths(),
                        in.getTaprootInternalKey(),
                        in.getUnknown());
            case PartiallySignedNonWitnessInput in ->
                new PartiallySignedNonWitnessInput(
                        in.getInputTx(),
                        in.getOutputIndex(),
                        in.getSighashType(),
                        sigs,
                        in.getDerivationPaths(),
                        in.getRedeemScript(),
                        in.getRipemd160(),
                        in.getSha256(),
                        in.getHash160(),
                        in.getHash256(),
                        in.getUnknown());
            default -> throw new IllegalArgumentException("the input cannot take a partial signature");
        };
    }

    private static Input withTapKeySig(Input input, ByteVector signature) {
        if (!(input instanceof PartiallySignedWitnessInput in)) {
            throw new IllegalArgumentException("the input cannot take a taproot key-path signature");
        }
        return new PartiallySignedWitnessInput(
                in.getTxOut(),
                in.getNonWitnessUtxo(),
                in.getSighashType(),
                in.getPartialSigs(),
                in.getDerivationPaths(),
                in.getRedeemScript(),
                in.getWitnessScript(),
                in.getRipemd160(),
                in.getSha256(),
                in.getHash160(),
                in.getHash256(),
                signature,
                in.getTaprootDerivationPaths(),
                in.getTaprootInternalKey(),
                in.getUnknown());
    }

    private static ByteBuffer entryKey(int keyType, byte[] keyData) {
        byte[] key = new byte[1 + keyData.length];
        key[0] = (byte) keyType;
        System.arraycopy(keyData, 0, key, 1, keyData.length);
        return ByteBuffer.wrap(key);
    }
}
