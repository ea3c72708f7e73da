package dev.keyhaven.chains.tron;

import com.google.protobuf.ByteString;
import dev.keyhaven.chains.TransactionFormatException;
import dev.keyhaven.chains.tron.proto.AccountPermissionUpdateContract;
import dev.keyhaven.chains.tron.proto.Contract;
import dev.keyhaven.chains.tron.proto.Contract.ContractType;
import dev.keyhaven.chains.tron.proto.DelegateResourceContract;
import dev.keyhaven.chains.tron.proto.FreezeBalanceV2Contract;
import dev.keyhaven.chains.tron.proto.Permission;
import dev.keyhaven.chains.tron.proto.ResourceCode;
import dev.keyhaven.chains.tron.proto.TransferContract;
import dev.keyhaven.chains.tron.proto.TriggerSmartContract;
import dev.keyhaven.chains.tron.proto.UnDelegateResourceContract;
import dev.keyhaven.chains.tron.proto.UnfreezeBalanceV2Contract;
import dev.keyhaven.policy.Value;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

/** The policy value of a transaction's contract: its type, its signer and, for the types Keyhaven reads, its fields. */
final class ContractReader {
    private static final String TYPE_URL_PREFIX = "type.googleapis.com/protocol.";
    private static final HexFormat HEX = HexFormat.of();

    private ContractReader() {}

    /** @param where the contract's place, {@code contract[0]}, for messages */
    static Value read(Contract contract, String where) {
        ContractType type = contract.getType();
        if (type == ContractType.UNRECOGNIZED) {
            throw new TransactionFormatException(
                    where + ".type is " + contract.getTypeValue() + ", which is not a Tron contract type");
        }
        if (!contract.hasParameter()) {
            throw new TransactionFormatException(where + " has no parameter");
        }
        // The type decides which message the parameter is read as, here and in java-tron; a type URL naming another
        // message would let a reader that goes by the URL see a different transaction. So the URL must be exactly
        // the one TronWeb and java-tron write (stricter than protobuf's Any.is, which ignores the host part).
        String expectedUrl = TYPE_URL_PREFIX + type.name();
        if (!contract.getParameter().getTypeUrl().equals(expectedUrl)) {
            throw new TransactionFormatException(where + ".parameter.type_url does not name " + type.name()
                    + ", the contract's type (expected " + expectedUrl + ")");
        }
        byte[] value = contract.getParameter().getValue().toByteArray();
        String valueWhere = where + ".parameter.value";
        Map<String, Value> fields = new HashMap<>();
        fields.put("type", Value.of(type.name()));
        fields.put("permission_id", Value.of(contract.getPermissionId()));
        String named = valueWhere + " (" + type.name() + ")";
        switch (type) {
            case TransferContract ->
                transfer(StrictProtobuf.parse(TransferContract.parser(), value, named), fields, valueWhere);
            case TriggerSmartContract ->
                trigger(StrictProtobuf.parse(TriggerSmartContract.parser(), value, named), fields, valueWhere);
            case DelegateResourceContract ->
                delegate(StrictProtobuf.parse(DelegateResourceContract.parser(), value, named), fields, valueWhere);
            case UnDelegateResourceContract ->
                undelegate(StrictProtobuf.parse(UnDelegateResourceContract.parser(), value, named), fields, valueWhere);
            case FreezeBalanceV2Contract ->
                freeze(StrictProtobuf.parse(FreezeBalanceV2Contract.parser(), value, named), fields, valueWhere);
            case UnfreezeBalanceV2Contract ->
                unfreeze(StrictProtobuf.parse(UnfreezeBalanceV2Contract.parser(), value, named), fields, valueWhere);
            case AccountPermissionUpdateContract ->
                permissions(
                        StrictProtobuf.parse(AccountPermissionUpdateContract.parser(), value, named),
                        fields,
                        valueWhere);
            default -> fields.putAll(UnreadContract.fields(type, value, named));
        }
        return Value.struct(fields);
    }

    private static void transfer(TransferContract transfer, Map<String, Value> fields, String where) {
        fields.put("owner_address", address(transfer.getOwnerAddress(), where, "owner_address"));
        fields.put("to_address", address(transfer.getToAddress(), where, "to_address"));
        fields.put("amount", Value.of(transfer.getAmount()));
    }

    private static void trigger(TriggerSmartContract trigger, Map<String, Value> fields, String where) {
        fields.put("owner_address", address(trigger.getOwnerAddress(), where, "owner_address"));
        fields.put("contract_address", address(trigger.getContractAddress(), where, "contract_address"));
        fields.put("call_value", Value.of(trigger.getCallValue()));
        // Lowercase hex without 0x, so a policy compares the selector as data[0..8] == 'a9059cbb'.
        fields.put("data", Value.of(HEX.formatHex(trigger.getData().toByteArray())));
        fields.put("call_token_value", Value.of(trigger.getCallTokenValue()));
        fields.put("token_id", Value.of(trigger.getTokenId()));
    }

    private static void delegate(DelegateResourceContract delegate, Map<String, Value> fields, String where) {
        fields.put("owner_address", address(delegate.getOwnerAddress(), where, "owner_address"));
        fields.put("resource", resource(delegate.getResource(), delegate.getResourceValue(), where));
        fields.put("balance", Value.of(delegate.getBalance()));
        fields.put("receiver_address", address(delegate.getReceiverAddress(), where, "receiver_address"));
        fields.put("lock", Value.of(delegate.getLock()));
        fields.put("lock_period", Value.of(delegate.getLockPeriod()));
    }

    private static void undelegate(UnDelegateResourceContract undelegate, Map<String, Value> fields, String where) {
        fields.put("owner_address", address(undelegate.getOwnerAddress(), where, "owner_address"));
        fields.put("resource", resource(undelegate.getResource(), undelegate.getResourceValue(), where));
        fields.put("balance", Value.of(undelegate.getBalance()));
        fields.put("receiver_address", address(undelegate.getReceiverAddress(), where, "receiver_address"));
    }

    private static void freeze(FreezeBalanceV2Contract freeze, Map<String, Value> fields, String where) {
        fields.put("owner_address", address(freeze.getOwnerAddress(), where, "owner_address"));
        fields.put("frozen_balance", Value.of(freeze.getFrozenBalance()));
        fields.put("resource", resource(freeze.getResource(), freeze.getResourceValue(), where));
    }

    private static void unfreeze(UnfreezeBalanceV2Contract unfreeze, Map<String, Value> fields, String where) {
        fields.put("owner_address", address(unfreeze.getOwnerAddress(), where, "owner_address"));
        fields.put("unfreeze_balance", Value.of(unfreeze.getUnfreezeBalance()));
        fields.put("resource", resource(unfreeze.getResource(), unfreeze.getResourceValue(), where));
    }

    /** An absent owner or witness permission stays absent: there is nothing in it for a policy to read. */
    private static void permissions(AccountPermissionUpdateContract update, Map<String, Value> fields, String where) {
        fields.put("owner_address", address(update.getOwnerAddress(), where, "owner_address"));
        if (update.hasOwner()) {
            fields.put("owner", PermissionReader.read(update.getOwner(), where + ".owner"));
        }
        if (update.hasWitness()) {
            fields.put("witness", PermissionReader.read(update.getWitness(), where + ".witness"));
        }
        List<Value> actives = new ArrayList<>();
        List<Permission> permissions = update.getActivesList();
        for (int i = 0; i < permissions.size(); i++) {
            actives.add(PermissionReader.read(permissions.get(i), where + ".actives[" + i + "]"));
        }
        fields.put("actives", Value.list(actives));
    }

    private static Value address(ByteString bytes, String where, String field) {
        return Value.of(TronAddress.text(bytes, where + "." + field));
    }

    private static Value resource(ResourceCode resource, int number, String where) {
        if (resource == ResourceCode.UNRECOGNIZED) {
            throw new TransactionFormatException(where + ".resource is " + number
                    + ", which is not a Tron resource (BANDWIDTH, ENERGY or TRON_POWER)");
        }
        return Value.of(resource.name());
    }
}
