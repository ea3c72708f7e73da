package dev.keyhaven.server.smartcontract;

import dev.keyhaven.chains.TransactionFormatException;
import dev.keyhaven.chains.ethereum.ContractAbi;
import dev.keyhaven.chains.solana.AnchorIdl;
import dev.keyhaven.server.activity.ActivityAction;
import dev.keyhaven.server.activity.ActivityContext;
import dev.keyhaven.server.activity.ActivityHandler;
import dev.keyhaven.server.activity.ActivityResource;
import dev.keyhaven.server.activity.ActivitySpec;
import dev.keyhaven.server.activity.ActivityType;
import dev.keyhaven.server.activity.ActivityVersion;
import dev.keyhaven.server.api.ApiException;
import dev.keyhaven.server.api.Params;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * {@code create_smart_contract_interface}: stores an Ethereum ABI or a Solana Anchor IDL for one contract address.
 * The document must parse as its type says, so nothing stored can fail to decode later; one interface per contract
 * address and type in an organization, so a transaction's call is read one way only.
 */
final class CreateSmartContractInterfaceHandler implements ActivityHandler<CreateSmartContractInterfaceHandler.Intent> {
    /** Turnkey's limit: a document of at most 400 kB. */
    static final int MAX_DOCUMENT_BYTES = 400 * 1024;

    private static final ActivitySpec SPEC = ActivitySpec.of(
            "create_smart_contract_interface",
            ActivityResource.SMART_CONTRACT_INTERFACE,
            ActivityAction.CREATE,
            new ActivityVersion(
                    ActivityType.CREATE_SMART_CONTRACT_INTERFACE,
                    "createSmartContractInterfaceIntent",
                    "createSmartContractInterfaceResult"));

    private final SmartContractInterfaceRepository interfaces;

    public CreateSmartContractInterfaceHandler(SmartContractInterfaceRepository interfaces) {
        this.interfaces = interfaces;
    }

    /** The validated intent; {@code addressField} names the address in the request, for a duplicate's 400. */
    public record Intent(
            SmartContractInterfaceType type,
            String address,
            String addressKey,
            String addressField,
            String document,
            String label,
            String notes) {

        @Override
        public String toString() {
            return "Intent[" + type + " " + address + "]";
        }
    }

    @Override
    public ActivitySpec spec() {
        return SPEC;
    }

    @Override
    public Intent parse(Params p) {
        SmartContractInterfaceType type = p.requiredEnum("type", SmartContractInterfaceType.class);
        String address = p.requiredString("smartContractAddress");
        String addressKey = ContractAddresses.key(type, address, p.pathOf("smartContractAddress"));
        String document = p.requiredString("smartContractInterface");
        checkDocument(type, document, p.pathOf("smartContractInterface"));
        String label = p.requiredString("label");
        if (label.isBlank()) {
            throw ApiException.badField(p.pathOf("label"), "must not be blank");
        }
        return new Intent(
                type,
                address,
                addressKey,
                p.pathOf("smartContractAddress"),
                document,
                label,
                p.optionalString("notes").orElse(""));
    }

    @Override
    public Object execute(ActivityContext context, Intent intent) {
        String org = context.organizationId();
        Optional<SmartContractInterface> existing =
                interfaces.findByAddress(context.tx(), org, intent.type(), intent.addressKey());
        if (existing.isPresent()) {
            throw ApiException.badField(
                    intent.addressField(),
                    "already has a smart contract interface of type "
                            + intent.type().wireName() + " in this organization ("
                            + existing.get().id() + ")");
        }
        String id = context.ids().next();
        interfaces.insert(
                context.tx(),
                new SmartContractInterface(
                        id,
                        org,
                        intent.type(),
                        intent.address(),
                        intent.addressKey(),
                        intent.document(),
                        intent.label(),
                        intent.notes(),
                        context.now(),
                        context.now()));
        return new Result(id);
    }

    private static void checkDocument(SmartContractInterfaceType type, String document, String field) {
        if (document.getBytes(StandardCharsets.UTF_8).length > MAX_DOCUMENT_BYTES) {
            throw ApiException.badField(field, "is larger than " + MAX_DOCUMENT_BYTES + " bytes");
        }
        try {
            switch (type) {
                case SMART_CONTRACT_INTERFACE_TYPE_ETHEREUM -> ContractAbi.parse(document);
                case SMART_CONTRACT_INTERFACE_TYPE_SOLANA -> AnchorIdl.parse(document);
            }
        } catch (TransactionFormatException e) {
            throw ApiException.badField(
                    field,
                    "is not "
                            + (type == SmartContractInterfaceType.SMART_CONTRACT_INTERFACE_TYPE_ETHEREUM
                                    ? "an Ethereum JSON ABI"
                                    : "a Solana Anchor IDL")
                            + ": "
                            + e.getMessage());
        }
    }

    /** {@code createSmartContractInterfaceResult}. */
    public record Result(String smartContractInterfaceId) {}
}
