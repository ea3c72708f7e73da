package dev.keyhaven.chains.tron;

import dev.keyhaven.chains.TransactionFormatException;
import dev.keyhaven.chains.tron.proto.Key;
import dev.keyhaven.chains.tron.proto.Permission;
import dev.keyhaven.policy.Value;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

/** The policy value of an account permission: who may sign (keys and weights), how many must, and for what. */
final class PermissionReader {
    private static final HexFormat HEX = HexFormat.of();

    private PermissionReader() {}

    static Value read(Permission permission, String where) {
        if (permission.getType() == Permission.PermissionType.UNRECOGNIZED) {
            throw new TransactionFormatException(where + ".type is " + permission.getTypeValue()
                    + ", which is not a Tron permission type (Owner, Witness or Active)");
        }
        List<Value> keys = new ArrayList<>();
        List<Key> protoKeys = permission.getKeysList();
        for (int i = 0; i < protoKeys.size(); i++) {
            Key key = protoKeys.get(i);
            keys.add(Value.struct(Map.of(
                    "address", Value.of(TronAddress.text(key.getAddress(), where + ".keys[" + i + "].address")),
                    "weight", Value.of(key.getWeight()))));
        }
        return Value.struct(Map.of(
                "type", Value.of(permission.getType().name()),
                "id", Value.of(permission.getId()),
                "permission_name", Value.of(permission.getPermissionName()),
                "threshold", Value.of(permission.getThreshold()),
                "parent_id", Value.of(permission.getParentId()),
                // As written, 32 bytes in an active permission and none in the others; the chain checks which.
                "operations", Value.of(HEX.formatHex(permission.getOperations().toByteArray())),
                "keys", Value.list(keys)));
    }
}
