package dev.keyhaven.chains.tron;

import static dev.keyhaven.policy.ValueType.BOOL;
import static dev.keyhaven.policy.ValueType.INT;
import static dev.keyhaven.policy.ValueType.STRING;

import dev.keyhaven.policy.ValueType;
import java.util.Map;
import java.util.Set;

/** The shape of {@code tron.tx}: the names policies use, as Turnkey documents them. */
final class TronPolicyType {
    /** An account permission as AccountPermissionUpdateContract sets it. */
    static final ValueType PERMISSION = ValueType.struct(Map.of(
            "type", STRING,
            "id", INT,
            "permission_name", STRING,
            "threshold", INT,
            "parent_id", INT,
            "operations", STRING,
            "keys", ValueType.listOf(ValueType.struct(Map.of("address", STRING, "weight", INT)))));

    /**
     * One struct for every contract type, the union of the fields of those Keyhaven reads, so that a policy naming
     * {@code contract[0].amount} is accepted whatever the type, and reads a value, nothing (another read type), or an
     * unreadable value (a type Keyhaven does not read).
     */
    static final ValueType.StructOf CONTRACT = ValueType.struct(Map.ofEntries(
            Map.entry("type", STRING),
            Map.entry("permission_id", INT),
            Map.entry("owner_address", STRING),
            Map.entry("to_address", STRING),
            Map.entry("amount", INT),
            Map.entry("contract_address", STRING),
            Map.entry("call_value", INT),
            Map.entry("data", STRING),
            Map.entry("call_token_value", INT),
            Map.entry("token_id", INT),
            Map.entry("resource", STRING),
            Map.entry("balance", INT),
            Map.entry("receiver_address", STRING),
            Map.entry("lock", BOOL),
            Map.entry("lock_period", INT),
            Map.entry("frozen_balance", INT),
            Map.entry("unfreeze_balance", INT),
            Map.entry("owner", PERMISSION),
            Map.entry("witness", PERMISSION),
            Map.entry("actives", ValueType.listOf(PERMISSION))));

    /** What every contract has, whether Keyhaven reads its type or not. */
    static final Set<String> COMMON_CONTRACT_FIELDS = Set.of("type", "permission_id", "owner_address");

    static final ValueType TRANSACTION = ValueType.struct(Map.of(
            "ref_block_bytes", STRING,
            "ref_block_hash", STRING,
            "expiration", INT,
            "timestamp", INT,
            "data", STRING,
            "fee_limit", INT,
            "contract", ValueType.listOf(CONTRACT)));

    private TronPolicyType() {}
}
