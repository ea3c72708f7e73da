package dev.keyhaven.server.smartcontract;

import dev.keyhaven.server.activity.ActivityAction;
import dev.keyhaven.server.activity.ActivityContext;
import dev.keyhaven.server.activity.ActivityHandler;
import dev.keyhaven.server.activity.ActivityResource;
import dev.keyhaven.server.activity.ActivitySpec;
import dev.keyhaven.server.activity.ActivityType;
import dev.keyhaven.server.activity.ActivityVersion;
import dev.keyhaven.server.api.Params;

/**
 * {@code delete_smart_contract_interface}: from the next activity on, calls to that contract are unreadable to
 * policies again (a DENY about them fails closed).
 */
final class DeleteSmartContractInterfaceHandler implements ActivityHandler<String> {
    private static final ActivitySpec SPEC = ActivitySpec.of(
            "delete_smart_contract_interface",
            ActivityResource.SMART_CONTRACT_INTERFACE,
            ActivityAction.DELETE,
            new ActivityVersion(
                    ActivityType.DELETE_SMART_CONTRACT_INTERFACE,
                    "deleteSmartContractInterfaceIntent",
                    "deleteSmartContractInterfaceResult"));

    private final SmartContractInterfaceRepository interfaces;

    public DeleteSmartContractInterfaceHandler(SmartContractInterfaceRepository interfaces) {
        this.interfaces = interfaces;
    }

    @Override
    public ActivitySpec spec() {
        return SPEC;
    }

    @Override
    public String parse(Params p) {
        return p.requiredString("smartContractInterfaceId");
    }

    @Override
    public Object execute(ActivityContext context, String id) {
        SmartContractInterfaces.require(interfaces, context.tx(), context.organizationId(), id);
        interfaces.delete(context.tx(), context.organizationId(), id);
        return new Result(id);
    }

    /** {@code deleteSmartContractInterfaceResult}. */
    public record Result(String smartContractInterfaceId) {}
}
