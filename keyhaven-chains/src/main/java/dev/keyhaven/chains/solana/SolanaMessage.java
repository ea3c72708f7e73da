package dev.keyhaven.chains.solana;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.SequencedSet;

/**
 * A parsed Solana message, legacy or v0, already checked by {@link MessageParser}.
 *
 * @param versioned whether it is a v0 message (which starts with the version prefix and may load accounts from
 *     address lookup tables)
 * @param staticKeys the account keys written in the message, Base58
 */
record SolanaMessage(
        boolean versioned,
        MessageHeader header,
        List<String> staticKeys,
        String recentBlockhash,
        List<CompiledInstruction> instructions,
        List<AddressTableLookup> lookups) {

    SolanaMessage {
        staticKeys = List.copyOf(staticKeys);
        instructions = List.copyOf(instructions);
        lookups = List.copyOf(lookups);
    }

    int loadedCount() {
        return lookups.stream().mapToInt(AddressTableLookup::loadedCount).sum();
    }

    /** How many accounts instructions may index: the static keys, then those loaded from lookup tables. */
    int accountCount() {
        return staticKeys.size() + loadedCount();
    }

    /**
     * The account at {@code index} of the message's account list. Loaded accounts follow the runtime's order: the
     * writable entries of every table, in table order, then the read-only ones; they never sign.
     */
    MessageAccount account(int index) {
        if (index < staticKeys.size()) {
            return new MessageAccount(
                    staticKeys.get(index), header.signer(index), header.writable(index, staticKeys.size()));
        }
        int loadedWritable = lookups.stream()
                .mapToInt(lookup -> lookup.writableIndexes().size())
                .sum();
        return new MessageAccount(MessageAccount.LOOKUP, false, index - staticKeys.size() < loadedWritable);
    }

    List<MessageAccount> accounts(CompiledInstruction instruction) {
        List<MessageAccount> accounts =
                new ArrayList<>(instruction.accountIndexes().size());
        for (int index : instruction.accountIndexes()) {
            accounts.add(account(index));
        }
        return accounts;
    }

    String programKey(CompiledInstruction instruction) {
        return staticKeys.get(instruction.programIndex());
    }

    /** The keys whose signatures the transaction carries, in the order of its signature slots. */
    List<String> requiredSigners() {
        return staticKeys.subList(0, header.requiredSignatures());
    }

    /** The distinct programs the instructions call, in the order they are first called. */
    SequencedSet<String> programKeys() {
        SequencedSet<String> programs = new LinkedHashSet<>();
        for (CompiledInstruction instruction : instructions) {
            programs.add(programKey(instruction));
        }
        return programs;
    }
}
