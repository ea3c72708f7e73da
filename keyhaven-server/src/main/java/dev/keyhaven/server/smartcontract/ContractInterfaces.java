package dev.keyhaven.server.smartcontract;

import dev.keyhaven.chains.TransactionFormatException;
import dev.keyhaven.chains.ethereum.ContractAbi;
import dev.keyhaven.chains.solana.AnchorIdl;
import dev.keyhaven.server.state.StateReads;
import java.util.Optional;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The interfaces a transaction's policies read with: the ABI of an Ethereum contract, the IDL of a Solana program.
 * Each is a lookup of the organization's state, so it is read and parsed once per state version (interface activities
 * change the organization), also on the signing path.
 */
public final class ContractInterfaces {
    private static final Logger LOG = LoggerFactory.getLogger(ContractInterfaces.class);
    private final SmartContractInterfaceRepository interfaces;

    public ContractInterfaces(SmartContractInterfaceRepository interfaces) {
        this.interfaces = interfaces;
    }

    /** The lookup of the ABI of an Ethereum contract, by address key. */
    private record AbiLookup(String addressKey) {}

    /** The lookup of the IDL of a Solana program, by program id. */
    private record IdlLookup(String programId) {}

    /** The uploaded ABI of the Ethereum contract at {@code address} (any letter case). */
    public Optional<ContractAbi> abi(StateReads organization, String address) {
        String key = ContractAddresses.ethereumKey(address);
        return organization.get(
                new AbiLookup(key),
                tx -> interfaces
                        .findByAddress(
                                tx,
                                organization.organizationId(),
                                SmartContractInterfaceType.SMART_CONTRACT_INTERFACE_TYPE_ETHEREUM,
                                key)
                        .flatMap(c -> parsed(c, ContractAbi::parse)));
    }

    /** The uploaded Anchor IDL of the Solana program {@code programId} (exactly as written). */
    public Optional<AnchorIdl> idl(StateReads organization, String programId) {
        return organization.get(
                new IdlLookup(programId),
                tx -> interfaces
                        .findByAddress(
                                tx,
                                organization.organizationId(),
                                SmartContractInterfaceType.SMART_CONTRACT_INTERFACE_TYPE_SOLANA,
                                programId)
                        .flatMap(c -> parsed(c, AnchorIdl::parse)));
    }

    /**
     * The stored document, parsed. It parsed when it was uploaded; should a stricter parser of a later version refuse
     * it, the contract counts as having no interface, so its calls are unreadable and a DENY about them fails closed
     * (rather than every signature failing with a 500).
     */
    private static <T> Optional<T> parsed(SmartContractInterface contract, Function<String, T> parser) {
        try {
            return Optional.of(parser.apply(contract.document()));
        } catch (TransactionFormatException e) {
            LOG.warn("smart contract interface {} no longer parses and is ignored: {}", contract.id(), e.getMessage());
            return Optional.empty();
        }
    }
}
