package dev.keyhaven.server.smartcontract;

import dev.keyhaven.crypto.Digests;
import dev.keyhaven.server.api.Caller;
import dev.keyhaven.server.api.Params;
import dev.keyhaven.server.tx.Transactor;
import dev.keyhaven.server.tx.Tx;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

/** {@code get_smart_contract_interface} and {@code list_smart_contract_interfaces}. */
public final class SmartContractInterfaceQueries {
    private final Transactor transactor;
    private final SmartContractInterfaceRepository interfaces;

    public SmartContractInterfaceQueries(Transactor transactor, SmartContractInterfaceRepository interfaces) {
        this.transactor = transactor;
        this.interfaces = interfaces;
    }

    /** {@code {organizationId, smartContractInterfaceId}} → {@code {smartContractInterface}}; 404 when none. */
    public Map<String, Object> getSmartContractInterface(Caller caller, Params body) {
        String id = body.requiredString("smartContractInterfaceId");
        return Map.of(
                "smartContractInterface",
                SmartContractInterfaceViews.of(transactor.read(
                        tx -> SmartContractInterfaces.require(interfaces, tx, caller.organizationId(), id))));
    }

    /**
     * get_organization's {@code smartContractInterfaceReferences}: {@code smartContractInterfaceId},
     * {@code smartContractAddress} and {@code digest} (hex SHA-256 of the document), in creation order.
     */
    public List<Map<String, String>> references(Tx tx, String organizationId) {
        return interfaces.list(tx, organizationId).stream()
                .map(c -> Map.of(
                        "smartContractInterfaceId",
                        c.id(),
                        "smartContractAddress",
                        c.address(),
                        "digest",
                        HexFormat.of().formatHex(Digests.sha256(c.document().getBytes(StandardCharsets.UTF_8)))))
                .toList();
    }

    /** {@code {organizationId}} → {@code {smartContractInterfaces}}, in creation order (Turnkey pages none). */
    public Map<String, Object> listSmartContractInterfaces(Caller caller, Params body) {
        return Map.of(
                "smartContractInterfaces",
                transactor.read(tx -> interfaces.list(tx, caller.organizationId())).stream()
                        .map(SmartContractInterfaceViews::of)
                        .toList());
    }
}
