package dev.keyhaven.chains.bitcoin;

import dev.keyhaven.chains.TransactionFormatException;
import fr.acinq.bitcoin.psbt.ParseFailure;
import fr.acinq.bitcoin.psbt.Psbt;
import fr.acinq.bitcoin.utils.Either;

/**
 * bitcoin-kmp's BIP-174 reader and writer. Called only on bytes {@link PsbtLayout} has already framed, so what can
 * still fail here is the meaning of an entry (a script, a UTXO, a key of the wrong length).
 */
final class PsbtCodec {
    /** kmp's reasons are its own fixed texts or a parser's complaint about lengths; long ones are cut. */
    private static final int MAX_REASON_LENGTH = 200;

    private PsbtCodec() {}

    static Psbt read(byte[] psbt) {
        Either<ParseFailure, Psbt> result;
        try {
            result = Psbt.read(psbt);
        } catch (RuntimeException e) {
            // kmp lets some parsers throw (e.g. a taproot derivation path), instead of answering a ParseFailure.
            throw new TransactionFormatException(
                    "the PSBT has an entry that cannot be read (" + e.getClass().getSimpleName() + ")", e);
        }
        if (result.isLeft()) {
            throw new TransactionFormatException("the PSBT is not valid BIP-174: " + reason(result.getLeft()));
        }
        return result.getRight();
    }

    static byte[] write(Psbt psbt) {
        return Psbt.write(psbt).toByteArray();
    }

    private static String reason(ParseFailure failure) {
        String reason = switch (failure) {
            case ParseFailure.InvalidTxInput input -> "an input map: " + input.getReason();
            case ParseFailure.InvalidTxOutput output -> "an output map: " + output.getReason();
            case ParseFailure.InvalidGlobalTx tx -> "the unsigned transaction: " + tx.getReason();
            case ParseFailure.InvalidExtendedPublicKey xpub -> "a global xpub: " + xpub.getReason();
            case ParseFailure.InvalidPsbtVersion version -> "the version: " + version.getReason();
            case ParseFailure.UnsupportedPsbtVersion version ->
                "version " + version.getVersion() + " (Keyhaven reads version 0)";
            default -> failure.getClass().getSimpleName();
        };
        return reason.length() <= MAX_REASON_LENGTH ? reason : reason.substring(0, MAX_REASON_LENGTH) + "…";
    }
}
