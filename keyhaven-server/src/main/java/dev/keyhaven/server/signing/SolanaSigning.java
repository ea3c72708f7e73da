package dev.keyhaven.server.signing;

import dev.keyhaven.chains.TransactionFormatException;
import dev.keyhaven.chains.solana.SolanaTransaction;
import dev.keyhaven.crypto.KeyCurve;
import dev.keyhaven.crypto.address.Base58Text;
import dev.keyhaven.crypto.sign.Signature;
import dev.keyhaven.policy.Value;
import dev.keyhaven.server.api.ApiException;
import dev.keyhaven.server.custody.Custody;
import dev.keyhaven.server.smartcontract.ContractInterfaces;
import dev.keyhaven.server.state.StateReads;
import java.util.Map;

/**
 * {@code TRANSACTION_TYPE_SOLANA}: the wire transaction {@code @turnkey/solana} sends (legacy or v0, with zeroed
 * signature slots). The key signs the message with Ed25519 and its signature goes in its own slot, which need not be
 * the fee payer's; other slots are left as they are. Policies read {@code solana.tx}, with instructions decoded for
 * programs whose Anchor IDL the organization uploaded.
 */
final class SolanaSigning implements ChainSigning<SolanaTransaction> {
    private final ContractInterfaces contracts;

    SolanaSigning(ContractInterfaces contracts) {
        this.contracts = contracts;
    }

    @Override
    public KeyCurve curve() {
        return KeyCurve.ED25519;
    }

    @Override
    public SolanaTransaction parse(byte[] unsigned) {
        return SolanaTransaction.parse(unsigned);
    }

    @Override
    public Keyword policyKeyword(SolanaTransaction transaction, SigningKeys.Resolved key, StateReads organization) {
        return new Keyword(
                "solana",
                Value.struct(Map.of("tx", transaction.policyValue(program -> contracts.idl(organization, program)))));
    }

    @Override
    public byte[] sign(SolanaTransaction transaction, SigningKeys.Resolved key, Custody custody) {
        byte[] publicKey = key.publicKey();
        String signer = Base58Text.encode(publicKey);
        if (!transaction.requiredSigners().contains(signer)) {
            throw ApiException.badRequest("signWith is not a required signer of this Solana transaction: " + signer
                    + " is none of its " + transaction.requiredSigners().size() + " signers ("
                    + String.join(", ", transaction.requiredSigners()) + ")");
        }
        Signature signature = custody.signEd25519(key.handle(), transaction.message());
        byte[] rs = new byte[64];
        System.arraycopy(signature.r(), 0, rs, 0, 32);
        System.arraycopy(signature.s(), 0, rs, 32, 32);
        try {
            return transaction.withSignature(publicKey, rs);
        } catch (TransactionFormatException e) {
            throw ApiException.badRequest(e.getMessage());
        }
    }
}
