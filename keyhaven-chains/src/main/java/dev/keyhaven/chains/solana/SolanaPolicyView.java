package dev.keyhaven.chains.solana;

import static dev.keyhaven.policy.ValueType.ANY;
import static dev.keyhaven.policy.ValueType.BOOL;
import static dev.keyhaven.policy.ValueType.INT;
import static dev.keyhaven.policy.ValueType.STRING;
import static dev.keyhaven.policy.ValueType.listOf;
import static dev.keyhaven.policy.ValueType.mapOf;
import static dev.keyhaven.policy.ValueType.struct;

import dev.keyhaven.policy.Value;
import dev.keyhaven.policy.ValueType;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;

/**
 * {@code solana.tx}, the value policies read, with the field names of Turnkey's documentation. Accounts loaded from
 * lookup tables appear as {@code ADDRESS_TABLE_LOOKUP} wherever an account key goes. Each instruction's
 * {@code address_table_lookups} is the transaction's list of lookups, the same for every instruction, under the
 * documented name.
 */
final class SolanaPolicyView {
    private static final ValueType LOOKUP = struct(
            Map.of("address_table_key", STRING, "writable_indexes", listOf(INT), "readonly_indexes", listOf(INT)));
    private static final ValueType ACCOUNT = struct(Map.of("account_key", STRING, "signer", BOOL, "writable", BOOL));
    private static final ValueType PARSED_INSTRUCTION = struct(Map.of(
            "instruction_name", STRING,
            "discriminator", STRING,
            "named_accounts", mapOf(STRING),
            "named_account", mapOf(STRING),
            "program_call_args", mapOf(ANY)));
    private static final ValueType INSTRUCTION = struct(Map.of(
            "program_key", STRING,
            "accounts", listOf(ACCOUNT),
            "instruction_data_hex", STRING,
            "address_table_lookups", listOf(LOOKUP),
            "parsed_instruction_data", PARSED_INSTRUCTION));
    private static final ValueType TRANSFER = struct(Map.of("from", STRING, "to", STRING, "amount", INT));
    private static final ValueType SPL_TRANSFER = struct(Map.of(
            "from",
            STRING,
            "to",
            STRING,
            "amount",
            INT,
            "owner",
            STRING,
            "signers",
            listOf(STRING),
            "token_mint",
            STRING));
    static final ValueType TYPE = struct(Map.of(
            "account_keys", listOf(STRING),
            "program_keys", listOf(STRING),
            "recent_blockhash", STRING,
            "instructions", listOf(INSTRUCTION),
            "transfers", listOf(TRANSFER),
            "spl_transfers", listOf(SPL_TRANSFER),
            "address_table_lookups", listOf(LOOKUP)));

    private SolanaPolicyView() {}

    static Value of(
            SolanaMessage message,
            List<NativeTransfer> transfers,
            List<TokenTransfer> tokenTransfers,
            Function<String, Optional<AnchorIdl>> idls) {
        List<String> accountKeys = new ArrayList<>(message.staticKeys());
        accountKeys.addAll(Collections.nCopies(message.loadedCount(), MessageAccount.LOOKUP));
        Value lookups = Value.list(
                message.lookups().stream().map(SolanaPolicyView::lookup).toList());
        Map<String, Optional<AnchorIdl>> idlOf = new HashMap<>();
        List<Value> instructions = new ArrayList<>();
        for (CompiledInstruction instruction : message.instructions()) {
            String program = message.programKey(instruction);
            Optional<AnchorIdl> idl = idlOf.computeIfAbsent(
                    program, key -> Objects.requireNonNullElse(idls.apply(key), Optional.empty()));
            instructions.add(instruction(message, instruction, lookups, idl));
        }
        return Value.struct(Map.of(
                "account_keys", Value.strings(accountKeys),
                "program_keys", Value.strings(message.programKeys()),
                "recent_blockhash", Value.of(message.recentBlockhash()),
                "instructions", Value.list(instructions),
                "transfers",
                        Value.list(transfers.stream()
                                .map(SolanaPolicyView::transfer)
                                .toList()),
                "spl_transfers",
                        Value.list(tokenTransfers.stream()
                                .map(SolanaPolicyView::tokenTransfer)
                                .toList()),
                "address_table_lookups", lookups));
    }

    private static Value instruction(
            SolanaMessage message, CompiledInstruction instruction, Value lookups, Optional<AnchorIdl> idl) {
        String program = message.programKey(instruction);
        List<MessageAccount> accounts = message.accounts(instruction);
        byte[] data = instruction.data();
        Value parsed = idl.map(found -> AnchorInstructionReader.read(found, program, accounts, data))
                .orElseGet(() -> Value.unreadable("no IDL uploaded for program " + program));
        return Value.struct(Map.of(
                "program_key", Value.of(program),
                "accounts",
                        Value.list(
                                accounts.stream().map(SolanaPolicyView::account).toList()),
                "instruction_data_hex", Value.of(HexFormat.of().formatHex(data)),
                "address_table_lookups", lookups,
                "parsed_instruction_data", parsed));
    }

    private static Value account(MessageAccount account) {
        return Value.struct(Map.of(
                "account_key", Value.of(account.key()),
                "signer", Value.of(account.signer()),
                "writable", Value.of(account.writable())));
    }

    private static Value lookup(AddressTableLookup lookup) {
        return Value.struct(Map.of(
                "address_table_key", Value.of(lookup.tableKey()),
                "writable_indexes", ints(lookup.writableIndexes()),
                "readonly_indexes", ints(lookup.readonlyIndexes())));
    }

    private static Value ints(List<Integer> values) {
        return Value.list(
                values.stream().<Value>map(index -> Value.of(index.longValue())).toList());
    }

    private static Value transfer(NativeTransfer transfer) {
        return Value.struct(Map.of(
                "from", Value.of(transfer.from()),
                "to", Value.of(transfer.to()),
                "amount", Value.of(transfer.lamports())));
    }

    private static Value tokenTransfer(TokenTransfer transfer) {
        return Value.struct(Map.of(
                "from", Value.of(transfer.from()),
                "to", Value.of(transfer.to()),
                "amount", Value.of(transfer.amount()),
                "owner", Value.of(transfer.owner()),
                "signers", Value.strings(transfer.signers()),
                "token_mint", Value.of(transfer.mint())));
    }
}
