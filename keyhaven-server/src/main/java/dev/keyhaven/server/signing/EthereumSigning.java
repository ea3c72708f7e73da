package dev.keyhaven.server.signing;

import dev.keyhaven.chains.ethereum.ContractAbi;
import dev.keyhaven.chains.ethereum.EthereumTransactionView;
import dev.keyhaven.crypto.KeyCurve;
import dev.keyhaven.crypto.address.AddressFormat;
import dev.keyhaven.crypto.address.Addresses;
import dev.keyhaven.crypto.eth.EthereumTransaction;
import dev.keyhaven.policy.Value;
import dev.keyhaven.server.custody.Custody;
import dev.keyhaven.server.smartcontract.ContractInterfaces;
import dev.keyhaven.server.state.StateReads;
import java.util.HexFormat;
import java.util.Map;
import java.util.Optional;

/**
 * {@code TRANSACTION_TYPE_ETHEREUM}: legacy, EIP-155 and typed (0x01–0x04) transactions. The key signs Keccak-256 of
 * the unsigned serialisation; the result is the signed serialisation ({@code @turnkey/viem} and {@code @turnkey/ethers}
 * broadcast it). Policies read {@code eth.tx}, with the contract call decoded when the organization uploaded an ABI for
 * {@code to}.
 */
final class EthereumSigning implements ChainSigning<EthereumTransaction> {
    private final ContractInterfaces contracts;

    EthereumSigning(ContractInterfaces contracts) {
        this.contracts = contracts;
    }

    @Override
    public KeyCurve curve() {
        return KeyCurve.SECP256K1;
    }

    @Override
    public EthereumTransaction parse(byte[] unsigned) {
        return EthereumTransactionView.parseUnsigned(unsigned);
    }

    @Override
    public Keyword policyKeyword(EthereumTransaction transaction, SigningKeys.Resolved key, StateReads organization) {
        Optional<ContractAbi> abi = transaction
                .to()
                .flatMap(to -> contracts.abi(organization, "0x" + HexFormat.of().formatHex(to)));
        return new Keyword(
                "eth", Value.struct(Map.of("tx", EthereumTransactionView.policyValue(transaction, from(key), abi))));
    }

    @Override
    public byte[] sign(EthereumTransaction transaction, SigningKeys.Resolved key, Custody custody) {
        return transaction.withSignature(custody.signDigest(key.handle(), transaction.signingHash()));
    }

    /** The signer's Ethereum address: the address its transactions come from. */
    private static String from(SigningKeys.Resolved key) {
        return Addresses.encode(AddressFormat.ETHEREUM, KeyCurve.SECP256K1, key.publicKey());
    }
}
