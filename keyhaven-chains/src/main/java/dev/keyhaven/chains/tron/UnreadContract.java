package dev.keyhaven.chains.tron;

import static dev.keyhaven.chains.tron.proto.Contract.ContractType.AccountCreateContract;
import static dev.keyhaven.chains.tron.proto.Contract.ContractType.AccountUpdateContract;
import static dev.keyhaven.chains.tron.proto.Contract.ContractType.AssetIssueContract;
import static dev.keyhaven.chains.tron.proto.Contract.ContractType.CancelAllUnfreezeV2Contract;
import static dev.keyhaven.chains.tron.proto.Contract.ContractType.ClearABIContract;
import static dev.keyhaven.chains.tron.proto.Contract.ContractType.CreateSmartContract;
import static dev.keyhaven.chains.tron.proto.Contract.ContractType.ExchangeCreateContract;
import static dev.keyhaven.chains.tron.proto.Contract.ContractType.ExchangeInjectContract;
import static dev.keyhaven.chains.tron.proto.Contract.ContractType.ExchangeTransactionContract;
import static dev.keyhaven.chains.tron.proto.Contract.ContractType.ExchangeWithdrawContract;
import static dev.keyhaven.chains.tron.proto.Contract.ContractType.FreezeBalanceContract;
import static dev.keyhaven.chains.tron.proto.Contract.ContractType.ParticipateAssetIssueContract;
import static dev.keyhaven.chains.tron.proto.Contract.ContractType.ProposalApproveContract;
import static dev.keyhaven.chains.tron.proto.Contract.ContractType.ProposalCreateContract;
import static dev.keyhaven.chains.tron.proto.Contract.ContractType.ProposalDeleteContract;
import static dev.keyhaven.chains.tron.proto.Contract.ContractType.SetAccountIdContract;
import static dev.keyhaven.chains.tron.proto.Contract.ContractType.TransferAssetContract;
import static dev.keyhaven.chains.tron.proto.Contract.ContractType.UnfreezeAssetContract;
import static dev.keyhaven.chains.tron.proto.Contract.ContractType.UnfreezeBalanceContract;
import static dev.keyhaven.chains.tron.proto.Contract.ContractType.UpdateAssetContract;
import static dev.keyhaven.chains.tron.proto.Contract.ContractType.UpdateBrokerageContract;
import static dev.keyhaven.chains.tron.proto.Contract.ContractType.UpdateEnergyLimitContract;
import static dev.keyhaven.chains.tron.proto.Contract.ContractType.UpdateSettingContract;
import static dev.keyhaven.chains.tron.proto.Contract.ContractType.VoteAssetContract;
import static dev.keyhaven.chains.tron.proto.Contract.ContractType.VoteWitnessContract;
import static dev.keyhaven.chains.tron.proto.Contract.ContractType.WithdrawBalanceContract;
import static dev.keyhaven.chains.tron.proto.Contract.ContractType.WithdrawExpireUnfreezeContract;
import static dev.keyhaven.chains.tron.proto.Contract.ContractType.WitnessCreateContract;
import static dev.keyhaven.chains.tron.proto.Contract.ContractType.WitnessUpdateContract;

import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.UnknownFieldSet;
import dev.keyhaven.chains.TransactionFormatException;
import dev.keyhaven.chains.tron.proto.Contract.ContractType;
import dev.keyhaven.policy.Value;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/**
 * A contract of a type whose fields Keyhaven does not read (votes, TRC-10 tokens, deployments, …). It can still be
 * signed, but every field a policy may name is unreadable, so that a DENY policy reading {@code contract[0].amount}
 * fails closed for such a contract instead of not applying. Only the signer, {@code owner_address}, is read, where
 * its place in the type's message is known.
 */
final class UnreadContract {
    /**
     * The field number of {@code bytes owner_address} in each type's message, as Tron's protocol defines it (checked
     * against the message classes TronWeb 6.5.1 bundles). Types missing here (CustomContract, GetContract,
     * ShieldedTransferContract, MarketSellAssetContract, MarketCancelOrderContract) get an unreadable owner.
     */
    private static final Map<ContractType, Integer> OWNER_FIELD = ownerFields();

    private UnreadContract() {}

    /** @param where the parameter's value and its type, for messages */
    static Map<String, Value> fields(ContractType type, byte[] parameter, String where) {
        UnknownFieldSet message;
        try {
            message = UnknownFieldSet.parseFrom(parameter);
        } catch (InvalidProtocolBufferException e) {
            throw new TransactionFormatException(where + " is not a valid protobuf message: " + e.getMessage(), e);
        }
        Value unreadable = Value.unreadable("Keyhaven does not read " + type.name());
        Map<String, Value> fields = new HashMap<>();
        for (String name : TronPolicyType.CONTRACT.fields().keySet()) {
            if (!TronPolicyType.COMMON_CONTRACT_FIELDS.contains(name)) {
                fields.put(name, unreadable);
            }
        }
        Integer ownerField = OWNER_FIELD.get(type);
        fields.put("owner_address", ownerField == null ? unreadable : Value.of(owner(message, ownerField, where)));
        return fields;
    }

    private static String owner(UnknownFieldSet message, int number, String where) {
        UnknownFieldSet.Field field = message.getField(number);
        boolean otherWireTypes = !field.getVarintList().isEmpty()
                || !field.getFixed32List().isEmpty()
                || !field.getFixed64List().isEmpty()
                || !field.getGroupList().isEmpty();
        if (otherWireTypes || field.getLengthDelimitedList().size() > 1) {
            throw new TransactionFormatException(
                    where + ": owner_address (field " + number + ") is not a single byte string");
        }
        if (field.getLengthDelimitedList().isEmpty()) {
            return "";
        }
        return TronAddress.text(field.getLengthDelimitedList().getFirst(), where + ".owner_address");
    }

    private static Map<ContractType, Integer> ownerFields() {
        Set<ContractType> first = EnumSet.of(
                AccountCreateContract,
                VoteAssetContract,
                VoteWitnessContract,
                WitnessCreateContract,
                AssetIssueContract,
                WitnessUpdateContract,
                ParticipateAssetIssueContract,
                FreezeBalanceContract,
                UnfreezeBalanceContract,
                WithdrawBalanceContract,
                UnfreezeAssetContract,
                UpdateAssetContract,
                ProposalCreateContract,
                ProposalApproveContract,
                ProposalDeleteContract,
                CreateSmartContract,
                UpdateSettingContract,
                ExchangeCreateContract,
                ExchangeInjectContract,
                ExchangeWithdrawContract,
                ExchangeTransactionContract,
                UpdateEnergyLimitContract,
                ClearABIContract,
                UpdateBrokerageContract,
                WithdrawExpireUnfreezeContract,
                CancelAllUnfreezeV2Contract);
        // These put a name or an id first.
        Set<ContractType> second = EnumSet.of(TransferAssetContract, AccountUpdateContract, SetAccountIdContract);
        Map<ContractType, Integer> fields = new EnumMap<>(ContractType.class);
        first.forEach(type -> fields.put(type, 1));
        second.forEach(type -> fields.put(type, 2));
        return Map.copyOf(fields);
    }
}
