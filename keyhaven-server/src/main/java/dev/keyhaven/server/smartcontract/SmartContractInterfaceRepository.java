package dev.keyhaven.server.smartcontract;

import dev.keyhaven.server.tx.Tx;
import java.util.List;
import java.util.Optional;

/** Storage of smart-contract interfaces (implemented by the store). */
public interface SmartContractInterfaceRepository {

    /** Inserts an interface; a second one for the same organization, type and address key violates a constraint. */
    void insert(Tx tx, SmartContractInterface contract);

    void delete(Tx tx, String organizationId, String id);

    Optional<SmartContractInterface> find(Tx tx, String organizationId, String id);

    /** The organization's interface of {@code type} for the contract whose address key is {@code addressKey}. */
    Optional<SmartContractInterface> findByAddress(
            Tx tx, String organizationId, SmartContractInterfaceType type, String addressKey);

    /** The organization's interfaces in id (creation) order. */
    List<SmartContractInterface> list(Tx tx, String organizationId);
}
