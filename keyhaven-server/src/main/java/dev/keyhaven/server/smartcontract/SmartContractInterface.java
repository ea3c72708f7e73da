package dev.keyhaven.server.smartcontract;

import java.time.Instant;

/**
 * An uploaded interface. {@code addressKey} is what lookups compare: an Ethereum address in lower case, a Solana
 * program id exactly as written (base58 is case-sensitive). {@code document} is the ABI or IDL JSON as uploaded.
 */
public record SmartContractInterface(
        String id,
        String organizationId,
        SmartContractInterfaceType type,
        String address,
        String addressKey,
        String document,
        String label,
        String notes,
        Instant createdAt,
        Instant updatedAt) {

    @Override
    public String toString() {
        // The document may be 400 kB: leave it out of logs and failures.
        return "SmartContractInterface[" + id + ", " + type.storedName() + " " + address + "]";
    }
}
