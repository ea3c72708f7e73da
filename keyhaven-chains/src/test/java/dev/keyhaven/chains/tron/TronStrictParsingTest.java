package dev.keyhaven.chains.tron;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.Any;
import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.Message;
import com.google.protobuf.UnknownFieldSet;
import dev.keyhaven.chains.TransactionFormatException;
import dev.keyhaven.chains.tron.proto.AccountPermissionUpdateContract;
import dev.keyhaven.chains.tron.proto.Contract;
import dev.keyhaven.chains.tron.proto.Contract.ContractType;
import dev.keyhaven.chains.tron.proto.DelegateResourceContract;
import dev.keyhaven.chains.tron.proto.FreezeBalanceV2Contract;
import dev.keyhaven.chains.tron.proto.RawTransaction;
import dev.keyhaven.chains.tron.proto.TransferContract;
import dev.keyhaven.policy.ListValue;
import dev.keyhaven.policy.StructValue;
import dev.keyhaven.policy.Value;
import java.io.ByteArrayOutputStream;
import java.util.Arrays;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

/** What Keyhaven refuses to sign, or binds as unreadable, rather than guess. Inputs are TronWeb's vectors, altered. */
class TronStrictParsingTest {

    @Test
    void refusesATransactionWithoutAContract() {
        byte[] raw = raw("transfer").toBuilder().clearContract().build().toByteArray();

        assertRefused(raw, "raw_data has 0 contracts; a Tron transaction has exactly one");
    }

    @Test
    void refusesASecondContract() {
        RawTransaction transfer = raw("transfer");
        byte[] raw = transfer.toBuilder()
                .addContract(transfer.getContract(0))
                .build()
                .toByteArray();

        assertRefused(raw, "raw_data has 2 contracts; a Tron transaction has exactly one");
    }

    @Test
    void refusesAParameterWhoseTypeUrlNamesAnotherType() {
        byte[] raw = withContract(
                "transfer",
                c -> c.toBuilder()
                        .setParameter(c.getParameter().toBuilder()
                                .setTypeUrl("type.googleapis.com/protocol.TriggerSmartContract"))
                        .build());

        assertRefused(
                raw,
                "contract[0].parameter.type_url does not name TransferContract, the contract's type"
                        + " (expected type.googleapis.com/protocol.TransferContract)");
    }

    @Test
    void refusesATypeUrlWithAnotherHost() {
        byte[] raw = withContract(
                "transfer",
                c -> c.toBuilder()
                        .setParameter(c.getParameter().toBuilder().setTypeUrl("example.com/protocol.TransferContract"))
                        .build());

        assertRefused(raw, "contract[0].parameter.type_url does not name TransferContract");
    }

    @Test
    void refusesAContractTypeTronDoesNotHave() {
        byte[] raw = withContract("transfer", c -> c.toBuilder().setTypeValue(7).build());

        assertRefused(raw, "contract[0].type is 7, which is not a Tron contract type");
    }

    @Test
    void refusesAContractWithoutParameter() {
        byte[] raw =
                withContract("transfer", c -> c.toBuilder().clearParameter().build());

        assertRefused(raw, "contract[0] has no parameter");
    }

    @Test
    void refusesRawFieldsKeyhavenDoesNotRead() {
        // Field 3 is Tron's unused ref_block_num; field 9 its deprecated auths.
        byte[] refBlockNum = raw("transfer").toBuilder()
                .setUnknownFields(varintField(3, 42))
                .build()
                .toByteArray();
        byte[] auths = raw("transfer").toBuilder()
                .setUnknownFields(UnknownFieldSet.newBuilder()
                        .addField(
                                9,
                                UnknownFieldSet.Field.newBuilder()
                                        .addLengthDelimited(ByteString.copyFrom(new byte[] {0x12, 0x01, 0x41}))
                                        .build())
                        .build())
                .build()
                .toByteArray();

        assertRefused(refBlockNum, "raw_data has field 3, which Keyhaven does not read");
        assertRefused(auths, "raw_data has field 9, which Keyhaven does not read");
    }

    @Test
    void refusesAContractProviderKeyhavenDoesNotRead() {
        byte[] raw = withContract(
                "transfer",
                c -> c.toBuilder()
                        .setUnknownFields(UnknownFieldSet.newBuilder()
                                .addField(
                                        3,
                                        UnknownFieldSet.Field.newBuilder()
                                                .addLengthDelimited(ByteString.EMPTY)
                                                .build())
                                .build())
                        .build());

        assertRefused(raw, "raw_data.contract[0] has field 3, which Keyhaven does not read");
    }

    @Test
    void refusesAParameterFieldKeyhavenDoesNotRead() {
        TransferContract transfer = parameter("transfer", TransferContract.class);
        byte[] raw = withParameter(
                "transfer",
                transfer.toBuilder().setUnknownFields(varintField(9, 1)).build().toByteString());

        assertRefused(raw, "contract[0].parameter.value (TransferContract) has field 9, which Keyhaven does not read");
    }

    @Test
    void refusesAnUnknownFieldDeepInAPermission() {
        AccountPermissionUpdateContract update = parameter("permissions", AccountPermissionUpdateContract.class);
        var active = update.getActives(0).toBuilder();
        active.setKeys(1, active.getKeys(1).toBuilder().setUnknownFields(varintField(5, 1)));
        byte[] raw = withParameter(
                "permissions", update.toBuilder().setActives(0, active).build().toByteString());

        assertRefused(
                raw,
                "contract[0].parameter.value (AccountPermissionUpdateContract).actives[0].keys[1]"
                        + " has field 5, which Keyhaven does not read");
    }

    @Test
    void refusesAFieldWrittenTwice() {
        byte[] canonical = raw("transfer").toByteArray();
        // A second expiration (field 8, varint) after the rest: protobuf readers keep the last one silently.
        byte[] raw = concat(canonical, new byte[] {0x40, 0x01});

        assertRefused(raw, "raw_data is not in protobuf's canonical encoding from byte 15 on");
    }

    @Test
    void refusesFieldsOutOfOrder() {
        RawTransaction transfer = raw("transfer");
        // fee_limit = 5 (field 18) before ref_block_bytes (field 1).
        byte[] feeLimitFirst = concat(new byte[] {(byte) 0x90, 0x01, 0x05}, transfer.toByteArray());

        assertRefused(feeLimitFirst, "raw_data is not in protobuf's canonical encoding from byte 0 on");
    }

    @Test
    void refusesADefaultValueWrittenOut() {
        TransferContract transfer = parameter("transfer", TransferContract.class);
        // amount = 0 written out (field 3, varint 0): proto3 writers leave defaults out.
        byte[] value = concat(transfer.toBuilder().clearAmount().build().toByteArray(), new byte[] {0x18, 0x00});
        byte[] raw = withParameter("transfer", ByteString.copyFrom(value));

        assertRefused(raw, "contract[0].parameter.value (TransferContract) is not in protobuf's canonical encoding");
    }

    @Test
    void refusesANumberLongerThanNeeded() {
        FreezeBalanceV2Contract freeze = parameter("freeze", FreezeBalanceV2Contract.class);
        byte[] owner = freeze.toBuilder().clearFrozenBalance().build().toByteArray();
        // frozen_balance = 5 as a three-byte varint.
        byte[] value = concat(owner, new byte[] {0x10, (byte) 0x85, (byte) 0x80, 0x00});
        byte[] raw = withParameter("freeze", ByteString.copyFrom(value));

        assertRefused(raw, "contract[0].parameter.value (FreezeBalanceV2Contract) is not in protobuf's canonical");
    }

    @Test
    void refusesABoolThatIsNeitherZeroNorOne() {
        DelegateResourceContract delegate = parameter("delegate", DelegateResourceContract.class);
        byte[] before =
                delegate.toBuilder().clearLock().clearLockPeriod().build().toByteArray();
        // lock = 2 (field 5), then lock_period = 86400 (field 6) as TronWeb wrote it.
        byte[] lockTwo = concat(before, new byte[] {0x28, 0x02, 0x30, (byte) 0x80, (byte) 0xa3, 0x05});

        assertRefused(
                withParameter("delegate", ByteString.copyFrom(lockTwo)),
                "contract[0].parameter.value (DelegateResourceContract) is not in protobuf's canonical encoding");
    }

    @Test
    void refusesAnAddressOfTheWrongLength() {
        TransferContract transfer = parameter("transfer", TransferContract.class);
        ByteString twenty = transfer.getToAddress().substring(1);
        byte[] raw = withParameter(
                "transfer", transfer.toBuilder().setToAddress(twenty).build().toByteString());

        assertRefused(
                raw,
                "contract[0].parameter.value.to_address is 20 bytes long; a Tron address is 21 bytes"
                        + " starting with 0x41");
    }

    @Test
    void refusesAnAddressWithoutTronsPrefix() {
        TransferContract transfer = parameter("transfer", TransferContract.class);
        byte[] owner = transfer.getOwnerAddress().toByteArray();
        owner[0] = (byte) 0xa0;
        byte[] raw = withParameter(
                "transfer",
                transfer.toBuilder()
                        .setOwnerAddress(ByteString.copyFrom(owner))
                        .build()
                        .toByteString());

        assertRefused(raw, "contract[0].parameter.value.owner_address does not start with 0x41");
    }

    @Test
    void refusesAKeyAddressWithoutTronsPrefix() {
        AccountPermissionUpdateContract update = parameter("permissions", AccountPermissionUpdateContract.class);
        var owner = update.getOwner().toBuilder();
        byte[] address = owner.getKeys(0).getAddress().toByteArray();
        address[0] = 0x42;
        owner.setKeys(0, owner.getKeys(0).toBuilder().setAddress(ByteString.copyFrom(address)));
        byte[] raw = withParameter(
                "permissions", update.toBuilder().setOwner(owner).build().toByteString());

        assertRefused(raw, "contract[0].parameter.value.owner.keys[0].address does not start with 0x41");
    }

    @Test
    void refusesAResourceTronDoesNotHave() {
        FreezeBalanceV2Contract freeze = parameter("freeze", FreezeBalanceV2Contract.class);
        byte[] raw = withParameter(
                "freeze", freeze.toBuilder().setResourceValue(9).build().toByteString());

        assertRefused(raw, "contract[0].parameter.value.resource is 9, which is not a Tron resource");
    }

    @Test
    void refusesAPermissionTypeTronDoesNotHave() {
        AccountPermissionUpdateContract update = parameter("permissions", AccountPermissionUpdateContract.class);
        byte[] raw = withParameter(
                "permissions",
                update.toBuilder()
                        .setActives(0, update.getActives(0).toBuilder().setTypeValue(5))
                        .build()
                        .toByteString());

        assertRefused(raw, "contract[0].parameter.value.actives[0].type is 5, which is not a Tron permission type");
    }

    @Test
    void refusesAParameterThatIsNotProtobuf() {
        byte[] raw = withParameter("transfer", ByteString.copyFrom(new byte[] {0x0a, 0x7f, 0x41}));

        assertRefused(raw, "contract[0].parameter.value (TransferContract) is not a valid protobuf message");
    }

    @Test
    void refusesAnUnreadTypeThatIsNotProtobuf() {
        byte[] raw = withParameter("vote", ByteString.copyFrom(new byte[] {0x0a, 0x7f, 0x41}));

        assertRefused(raw, "contract[0].parameter.value (VoteWitnessContract) is not a valid protobuf message");
    }

    @Test
    void refusesAnUnreadTypeWhoseOwnerIsNotOneByteString() {
        byte[] raw = withParameter("vote", varintField(1, 5).toByteString());

        assertRefused(
                raw,
                "contract[0].parameter.value (VoteWitnessContract): owner_address (field 1) is not a"
                        + " single byte string");
    }

    @Test
    void refusesARawPartLargerThanTronAccepts() {
        byte[] raw = new byte[TronTransaction.MAX_RAW_BYTES + 1];

        assertRefused(raw, "raw_data is 512001 bytes; Tron transactions are at most 512000");
    }

    @Test
    void bindsTheOwnerOfAnUnreadTypeWhosePlaceIsUnknownAsUnreadable() {
        byte[] raw = withContract(
                "vote",
                c -> c.toBuilder()
                        .setType(ContractType.ShieldedTransferContract)
                        .setParameter(Any.newBuilder()
                                .setTypeUrl("type.googleapis.com/protocol.ShieldedTransferContract")
                                .setValue(c.getParameter().getValue()))
                        .build());

        Map<String, Value> contract = contract(TronTransaction.parse(raw).policyValue());

        assertThat(contract.get("owner_address"))
                .isEqualTo(Value.unreadable("Keyhaven does not read ShieldedTransferContract"));
        assertThat(contract.get("type")).isEqualTo(Value.of("ShieldedTransferContract"));
    }

    @Test
    void bindsAMemoThatIsNotUtf8AsUnreadable() {
        byte[] raw = raw("transfer").toBuilder()
                .setData(ByteString.copyFrom(new byte[] {(byte) 0xc3, 0x28}))
                .build()
                .toByteArray();

        Value tx = TronTransaction.parse(raw).policyValue();

        assertThat(((StructValue) tx).fields().get("data"))
                .isEqualTo(Value.unreadable("the memo (raw_data.data) is not UTF-8 text"));
        assertThat(TronTransaction.POLICY_TYPE.mismatch(tx)).isEmpty();
    }

    @Test
    void bindsAbsentAddressesAndNegativeAmountsAsWritten() {
        TransferContract transfer = parameter("transfer", TransferContract.class);
        byte[] raw = withParameter(
                "transfer",
                transfer.toBuilder().clearToAddress().setAmount(-1).build().toByteString());

        Map<String, Value> contract = contract(TronTransaction.parse(raw).policyValue());

        assertThat(contract.get("to_address")).isEqualTo(Value.of(""));
        assertThat(contract.get("amount")).isEqualTo(Value.of(-1));
    }

    @Test
    void keepsItsOwnCopyOfTheBytes() {
        byte[] raw = TronVectors.named("transfer").raw();
        TronTransaction transaction = TronTransaction.parse(raw);

        Arrays.fill(raw, (byte) 0);

        assertThat(TronVectors.HEX.formatHex(transaction.signingDigest()))
                .isEqualTo(TronVectors.named("transfer").field("txID"));
    }

    @Test
    void signedRefusesARecoveryIdOtherThanZeroOrOne() {
        TronTransaction transaction = TronVectors.parsed("transfer");

        assertThatThrownBy(() -> transaction.signed(new byte[32], new byte[32], 27))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("recoveryId must be 0 or 1, got 27");
        assertThatThrownBy(() -> transaction.signed(new byte[32], new byte[31], 0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("r and s must be 32 bytes each");
    }

    private static void assertRefused(byte[] raw, String message) {
        assertThatThrownBy(() -> TronTransaction.parse(raw))
                .isExactlyInstanceOf(TransactionFormatException.class)
                .hasMessageStartingWith(message);
    }

    private static RawTransaction raw(String vector) {
        try {
            return RawTransaction.parseFrom(TronVectors.named(vector).raw());
        } catch (InvalidProtocolBufferException e) {
            throw new AssertionError(e);
        }
    }

    private static <M extends Message> M parameter(String vector, Class<M> type) {
        try {
            return raw(vector).getContract(0).getParameter().unpack(type);
        } catch (InvalidProtocolBufferException e) {
            throw new AssertionError(e);
        }
    }

    private static byte[] withContract(String vector, UnaryOperator<Contract> change) {
        RawTransaction raw = raw(vector);
        return raw.toBuilder()
                .setContract(0, change.apply(raw.getContract(0)))
                .build()
                .toByteArray();
    }

    private static byte[] withParameter(String vector, ByteString value) {
        return withContract(
                vector,
                c -> c.toBuilder()
                        .setParameter(c.getParameter().toBuilder().setValue(value))
                        .build());
    }

    private static UnknownFieldSet varintField(int number, long value) {
        return UnknownFieldSet.newBuilder()
                .addField(
                        number,
                        UnknownFieldSet.Field.newBuilder().addVarint(value).build())
                .build();
    }

    private static Map<String, Value> contract(Value tx) {
        ListValue contracts = (ListValue) ((StructValue) tx).fields().get("contract");
        return ((StructValue) contracts.elements().getFirst()).fields();
    }

    private static byte[] concat(byte[] first, byte[] second) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(first);
        out.writeBytes(second);
        return out.toByteArray();
    }
}
