package dev.keyhaven.server.signing;

import dev.keyhaven.chains.tron.TronTransaction;
import dev.keyhaven.crypto.KeyCurve;
import dev.keyhaven.crypto.sign.Signature;
import dev.keyhaven.policy.Value;
import dev.keyhaven.server.custody.Custody;
import dev.keyhaven.server.state.StateReads;
import java.util.Map;

/**
 * {@code TRANSACTION_TYPE_TRON}: TronWeb's {@code raw_data_hex} (the protobuf {@code Transaction.raw}). The key signs
 * SHA-256 of those bytes (the transaction id) with secp256k1; the result is the signed protobuf {@code Transaction}
 * that {@code tronWeb.trx.sendHexTransaction} and {@code /wallet/broadcasthex} take. Policies read {@code tron.tx}.
 */
final class TronSigning implements ChainSigning<TronTransaction> {

    @Override
    public KeyCurve curve() {
        return KeyCurve.SECP256K1;
    }

    @Override
    public TronTransaction parse(byte[] unsigned) {
        return TronTransaction.parse(unsigned);
    }

    @Override
    public Keyword policyKeyword(TronTransaction transaction, SigningKeys.Resolved key, StateReads organization) {
        return new Keyword("tron", Value.struct(Map.of("tx", transaction.policyValue())));
    }

    @Override
    public byte[] sign(TronTransaction transaction, SigningKeys.Resolved key, Custody custody) {
        Signature signature = custody.signDigest(key.handle(), transaction.signingDigest());
        return transaction.signed(signature.r(), signature.s(), signature.v());
    }
}
