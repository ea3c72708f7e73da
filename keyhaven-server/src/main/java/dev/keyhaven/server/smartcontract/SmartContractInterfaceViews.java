package dev.keyhaven.server.smartcontract;

import dev.keyhaven.server.api.WireTime;

/** Wire forms: Turnkey's {@code externaldatav1SmartContractInterface}, every field required. */
final class SmartContractInterfaceViews {
    private SmartContractInterfaceViews() {}

    record WireSmartContractInterface(
            String organizationId,
            String smartContractInterfaceId,
            String smartContractAddress,
            String smartContractInterface,
            String type,
            String label,
            String notes,
            WireTime createdAt,
            WireTime updatedAt) {}

    static WireSmartContractInterface of(SmartContractInterface c) {
        return new WireSmartContractInterface(
                c.organizationId(),
                c.id(),
                c.address(),
                c.document(),
                c.type().storedName(),
                c.label(),
                c.notes(),
                WireTime.of(c.createdAt()),
                WireTime.of(c.updatedAt()));
    }
}
