package dev.keyhaven.chains.bitcoin;

import fr.acinq.bitcoin.Satoshi;
import fr.acinq.bitcoin.SigVersion;
import fr.acinq.bitcoin.Transaction;
import fr.acinq.bitcoin.TxOut;
import java.util.List;

/**
 * The three signature hashes Keyhaven signs, computed by bitcoin-kmp: the legacy one, BIP-143's for segwit version 0
 * and BIP-341's for a taproot key path. Each returns the 32 bytes the signature is made over, in the order they are
 * signed. The hash type is a parameter so the published vectors (which use every type) can be checked here; what
 * Keyhaven itself signs is only ALL (ECDSA) and DEFAULT (taproot), decided by {@link InputJudge}.
 */
final class Sighashes {
    static final int SIGHASH_DEFAULT = 0x00;
    static final int SIGHASH_ALL = 0x01;

    private Sighashes() {}

    /** Legacy (P2PKH, P2SH): the script code is the output script or the redeem script. */
    static byte[] legacy(Transaction tx, int index, byte[] scriptCode, int hashType) {
        return tx.hashForSigning(index, scriptCode, hashType);
    }

    /**
     * BIP-143: the script code is the P2PKH script of the key hash for P2WPKH, the witness script for P2WSH;
     * {@code amount} is the value of the output spent, which the signature commits to.
     */
    static byte[] segwitV0(Transaction tx, int index, byte[] scriptCode, long amount, int hashType) {
        return tx.hashForSigning(index, scriptCode, hashType, new Satoshi(amount), SigVersion.SIGVERSION_WITNESS_V0);
    }

    /** BIP-341 key path, with no annex: commits to the outputs spent by every input. */
    static byte[] taprootKeyPath(Transaction tx, int index, List<TxOut> spent, int hashType) {
        return tx.hashForSigningTaprootKeyPath(index, spent, hashType, null).toByteArray();
    }
}
