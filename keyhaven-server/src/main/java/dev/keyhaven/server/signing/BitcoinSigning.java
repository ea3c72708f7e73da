package dev.keyhaven.server.signing;

import dev.keyhaven.chains.TransactionFormatException;
import dev.keyhaven.chains.bitcoin.InputSignature;
import dev.keyhaven.chains.bitcoin.InputToSign;
import dev.keyhaven.chains.bitcoin.PartiallySignedTransaction;
import dev.keyhaven.crypto.KeyCurve;
import dev.keyhaven.crypto.address.AddressFormat;
import dev.keyhaven.crypto.address.BitcoinNetwork;
import dev.keyhaven.crypto.sign.Signature;
import dev.keyhaven.policy.Value;
import dev.keyhaven.server.api.ApiException;
import dev.keyhaven.server.custody.Custody;
import dev.keyhaven.server.state.StateReads;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@code TRANSACTION_TYPE_BITCOIN}: a PSBT (BIP-174). Every input the key can spend is signed (ECDSA with
 * SIGHASH_ALL for P2PKH, P2SH, P2WPKH and P2WSH; BIP-340 Schnorr with the BIP-86 tweak and SIGHASH_DEFAULT for a
 * Taproot key path); the result is the PSBT with those signatures, not finalised, everything else as it came.
 * Policies read {@code bitcoin.tx}; its output addresses are written on the network of {@code signWith}'s address.
 */
final class BitcoinSigning implements ChainSigning<PartiallySignedTransaction> {

    @Override
    public KeyCurve curve() {
        return KeyCurve.SECP256K1;
    }

    @Override
    public PartiallySignedTransaction parse(byte[] unsigned) {
        return PartiallySignedTransaction.parse(unsigned);
    }

    @Override
    public Keyword policyKeyword(
            PartiallySignedTransaction transaction, SigningKeys.Resolved key, StateReads organization) {
        return new Keyword("bitcoin", Value.struct(Map.of("tx", transaction.policyValue(network(key)))));
    }

    @Override
    public byte[] sign(PartiallySignedTransaction transaction, SigningKeys.Resolved key, Custody custody) {
        byte[] publicKey = key.publicKey();
        List<InputToSign> inputs;
        try {
            inputs = transaction.inputsSpendableBy(publicKey);
        } catch (TransactionFormatException e) {
            throw ApiException.badRequest("cannot sign this PSBT with signWith: " + e.getMessage());
        }
        List<InputSignature> signatures = new ArrayList<>(inputs.size());
        for (InputToSign input : inputs) {
            signatures.add(
                    switch (input.scheme()) {
                        case ECDSA -> {
                            Signature signature = custody.signDigest(key.handle(), input.sighash());
                            yield InputSignature.ecdsa(input.index(), publicKey, signature.r(), signature.s());
                        }
                        case TAPROOT_KEY_PATH ->
                            InputSignature.taproot(
                                    input.index(), custody.signTaprootKeyPath(key.handle(), input.sighash()));
                    });
        }
        return transaction.withSignatures(signatures);
    }

    /**
     * The network of the key's Bitcoin address: the wallet account's format, or the format of the private key's
     * address that {@code signWith} named. A private key named by id has no network.
     */
    private static Optional<BitcoinNetwork> network(SigningKeys.Resolved key) {
        return key.addressFormat().flatMap(BitcoinSigning::network);
    }

    private static Optional<BitcoinNetwork> network(AddressFormat format) {
        String name = format.wireName();
        if (!name.startsWith("ADDRESS_FORMAT_BITCOIN_")) {
            return Optional.empty();
        }
        if (name.startsWith("ADDRESS_FORMAT_BITCOIN_MAINNET_")) {
            return Optional.of(BitcoinNetwork.MAINNET);
        }
        if (name.startsWith("ADDRESS_FORMAT_BITCOIN_TESTNET_")) {
            return Optional.of(BitcoinNetwork.TESTNET);
        }
        if (name.startsWith("ADDRESS_FORMAT_BITCOIN_SIGNET_")) {
            return Optional.of(BitcoinNetwork.SIGNET);
        }
        return Optional.of(BitcoinNetwork.REGTEST);
    }
}
