package dev.keyhaven.chains.solana;

import dev.keyhaven.chains.TransactionFormatException;
import dev.keyhaven.policy.StructValue;
import dev.keyhaven.policy.Value;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@code parsed_instruction_data}: what an instruction does according to its program's Anchor IDL. Whatever cannot be
 * read with certainty (data that matches no instruction, or does not decode exactly, or too few accounts) is bound as
 * unreadable, so a DENY policy reading it fails closed.
 */
final class AnchorInstructionReader {
    private AnchorInstructionReader() {}

    static Value read(AnchorIdl idl, String programKey, List<MessageAccount> accounts, byte[] data) {
        Optional<IdlInstruction> match = idl.instructionFor(data);
        if (match.isEmpty()) {
            return Value.unreadable("the data matches no instruction of the IDL uploaded for program " + programKey);
        }
        IdlInstruction instruction = match.get();
        Map<String, Value> arguments;
        try {
            arguments = BorshDecoder.arguments(idl, instruction, data);
        } catch (TransactionFormatException e) {
            return Value.unreadable("the data of instruction " + instruction.name() + " does not decode with the IDL "
                    + "uploaded for program " + programKey + ": " + e.getMessage());
        }
        Optional<StructValue> named = namedAccounts(instruction, programKey, accounts);
        if (named.isEmpty()) {
            return Value.unreadable("instruction " + instruction.name() + " of program " + programKey + " has "
                    + accounts.size() + " accounts, fewer than the IDL requires");
        }
        return Value.struct(Map.of(
                "instruction_name", Value.of(instruction.name()),
                "discriminator", Value.of(instruction.discriminatorHex()),
                "named_accounts", named.get(),
                // Turnkey's documentation spells the field both ways; policies may use either.
                "named_account", named.get(),
                "program_call_args", Value.struct(arguments)));
    }

    /**
     * The IDL's account names and the keys in their positions. Anchor's clients pass the program's own id for an
     * absent optional account, and trailing optional accounts may be left off: either way, it is omitted.
     */
    private static Optional<StructValue> namedAccounts(
            IdlInstruction instruction, String programKey, List<MessageAccount> accounts) {
        Map<String, Value> named = new HashMap<>();
        List<IdlAccountSlot> slots = instruction.accounts();
        for (int i = 0; i < slots.size(); i++) {
            IdlAccountSlot slot = slots.get(i);
            if (i >= accounts.size()) {
                if (!slot.optional()) {
                    return Optional.empty();
                }
                continue;
            }
            String key = accounts.get(i).key();
            if (!(slot.optional() && key.equals(programKey))) {
                named.put(slot.name(), Value.of(key));
            }
        }
        return Optional.of(Value.struct(named));
    }
}
