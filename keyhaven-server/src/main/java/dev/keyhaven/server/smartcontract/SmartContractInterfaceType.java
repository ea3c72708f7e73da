package dev.keyhaven.server.smartcontract;

import dev.keyhaven.server.api.WireEnum;

/** Turnkey's {@code v1SmartContractInterfaceType}: what kind of document an interface is, and for which chain. */
public enum SmartContractInterfaceType implements WireEnum {
    /** A JSON ABI of an Ethereum contract, matched against {@code eth.tx.to} in any letter case. */
    SMART_CONTRACT_INTERFACE_TYPE_ETHEREUM("ETHEREUM"),
    /** An Anchor IDL of a Solana program, matched against an instruction's program id exactly. */
    SMART_CONTRACT_INTERFACE_TYPE_SOLANA("SOLANA");

    private final String storedName;

    SmartContractInterfaceType(String storedName) {
        this.storedName = storedName;
    }

    @Override
    public String wireName() {
        return name();
    }

    /** How the stored object names its type ("either ETHEREUM or SOLANA", in Turnkey's own words). */
    public String storedName() {
        return storedName;
    }
}
