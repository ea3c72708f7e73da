package dev.keyhaven.server.smartcontract;

import dev.keyhaven.server.activity.ActivityHandler;
import dev.keyhaven.server.tx.Transactor;
import java.util.List;

/**
 * Smart-contract interfaces assembled: the activities that upload and delete them, the queries that read them, and
 * the {@link ContractInterfaces} transaction signing decodes calls with.
 */
public final class SmartContractFeature {
    private final ContractInterfaces contracts;
    private final SmartContractInterfaceQueries queries;
    private final List<ActivityHandler<?>> handlers;

    public SmartContractFeature(Transactor transactor, SmartContractInterfaceRepository interfaces) {
        this.contracts = new ContractInterfaces(interfaces);
        this.queries = new SmartContractInterfaceQueries(transactor, interfaces);
        this.handlers = List.of(
                new CreateSmartContractInterfaceHandler(interfaces),
                new DeleteSmartContractInterfaceHandler(interfaces));
    }

    public List<ActivityHandler<?>> handlers() {
        return handlers;
    }

    public ContractInterfaces contracts() {
        return contracts;
    }

    public SmartContractInterfaceQueries queries() {
        return queries;
    }
}
