package dev.keyhaven.server.smartcontract;

import dev.keyhaven.chains.ethereum.ContractAbi;
import dev.keyhaven.chains.solana.AnchorIdl;
import dev.keyhaven.server.state.StateReads;
import java.util.Optional;

/**
 * The interfaces a transaction's policies read with: the ABI of an Ethereum contract, the IDL of a Solana program.
 * Each is a lookup of the organization's state, so it is read and parsed once per state version (interface activities
 * change the organization), also on the signing path.
 */
public final class ContractInterfaces {
    private final SmartContractInterfaceRepository interfaces;

    public ContractInterfaces(SmartContractInterfaceRepository interfaces) {
        this.interfaces = interfaces;
    }

    /** The lookup of the ABI of an Ethereum contract, by address key. */
    private record AbiLookup(String addressKey) {
    }

    /** The lookup of the IDL of a Solana program, by program id. */
    private record IdlLookup(String programId) {
    }

    /** The uploaded ABI of the Ethereum contract at {@code address} (any letter case). */
    public Optional<ContractAbi> abi(StateReads organization, String address) {
        String key = ContractAddresses.ethereumKey(address);
        return organization.get(new AbiLookup(key), tx -> interfaces.findByAddress(tx,
                organization.organizationId(), SmartContractInterfaceType.SMART_CONTRACT_INTERFACE_TYPE_ETHEREUM, key)
                .map(c -> ContractAbi.parse(c.document())));
    }

    /** The uploaded Anchor IDL of the Solana program {@code programId} (exactly as written). */
    public Optional<AnchorIdl> idl(StateReads organization, String programId) {
        return organization.get(new IdlLookup(programId), tx -> interfaces.findByAddress(tx,
                organization.organizationId(), SmartContractInterfaceType.SMART_CONTRACT_INTERFACE_TYPE_SOLANA,
                programId).map(c -> AnchorIdl.parse(c.document())));
    }
}
