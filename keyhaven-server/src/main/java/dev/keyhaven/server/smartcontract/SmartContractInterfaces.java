package dev.keyhaven.server.smartcontract;

import dev.keyhaven.server.api.ApiException;
import dev.keyhaven.server.tx.Tx;

/** The lookup that answers 404 when an organization has no interface with the id asked for. */
final class SmartContractInterfaces {
    private SmartContractInterfaces() {}

    static SmartContractInterface require(
            SmartContractInterfaceRepository interfaces, Tx tx, String organizationId, String id) {
        return interfaces
                .find(tx, organizationId, id)
                .orElseThrow(() -> ApiException.notFound(
                        "no smart contract interface found with id " + id + " in organization " + organizationId));
    }
}
