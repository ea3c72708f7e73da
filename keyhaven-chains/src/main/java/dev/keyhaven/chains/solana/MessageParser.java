package dev.keyhaven.chains.solana;

import dev.keyhaven.chains.TransactionFormatException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads a Solana message, legacy or v0, and checks what the runtime's sanitisation checks, so that Keyhaven never
 * signs a message the network would read differently or refuse: a header that fits the keys, a writable signing fee
 * payer, distinct keys, instruction indexes in range, programs among the static keys, at most 256 accounts.
 */
final class MessageParser {
    /** The high bit of a message's first byte marks a versioned message; a legacy header's first count is below it. */
    private static final int VERSION_PREFIX = 0x80;
    /** Instructions index accounts with one byte. */
    private static final int MAX_ACCOUNTS = 256;
    /** A program index, an account count and a data length of one byte each. */
    private static final int MIN_INSTRUCTION_SIZE = 3;
    /** A table key and two empty index lists. */
    private static final int MIN_LOOKUP_SIZE = SolanaKeys.SIZE + 2;

    private MessageParser() {}

    /** The message that starts at {@code offset} of {@code wire} and runs to its end. */
    static SolanaMessage parse(byte[] wire, int offset) {
        WireReader reader = new WireReader(wire, offset);
        boolean versioned = (reader.peek("message header") & VERSION_PREFIX) != 0;
        if (versioned) {
            int version = reader.u8("message version") & ~VERSION_PREFIX;
            if (version != 0) {
                throw new TransactionFormatException("unsupported Solana message version " + version
                        + " at byte offset " + offset + " (Keyhaven reads legacy and v0 messages)");
            }
        }
        MessageHeader header = new MessageHeader(
                reader.u8("header: required signatures"),
                reader.u8("header: read-only signed accounts"),
                reader.u8("header: read-only unsigned accounts"));
        int keyCount = reader.count("account keys", SolanaKeys.SIZE);
        List<String> keys = new ArrayList<>(keyCount);
        for (int i = 0; i < keyCount; i++) {
            keys.add(SolanaKeys.base58(reader.bytes(SolanaKeys.SIZE, "account key " + i)));
        }
        String blockhash = SolanaKeys.base58(reader.bytes(SolanaKeys.SIZE, "recent blockhash"));
        int instructionCount = reader.count("instructions", MIN_INSTRUCTION_SIZE);
        List<CompiledInstruction> instructions = new ArrayList<>(instructionCount);
        for (int i = 0; i < instructionCount; i++) {
            instructions.add(instruction(reader, i));
        }
        List<AddressTableLookup> lookups = versioned ? lookups(reader) : List.of();
        reader.expectEnd("message");
        SolanaMessage message = new SolanaMessage(versioned, header, keys, blockhash, instructions, lookups);
        checkHeader(message);
        checkKeys(message);
        checkInstructions(message);
        return message;
    }

    private static CompiledInstruction instruction(WireReader reader, int index) {
        String name = "instruction " + index;
        int program = reader.u8(name + ": program index");
        int accountCount = reader.count(name + ": accounts", 1);
        byte[] accounts = reader.bytes(accountCount, name + ": accounts");
        int dataLength = reader.count(name + ": data", 1);
        byte[] data = reader.bytes(dataLength, name + ": data");
        return new CompiledInstruction(program, unsigned(accounts), data);
    }

    private static List<AddressTableLookup> lookups(WireReader reader) {
        int count = reader.count("address table lookups", MIN_LOOKUP_SIZE);
        List<AddressTableLookup> lookups = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            String name = "address table lookup " + i;
            String table = SolanaKeys.base58(reader.bytes(SolanaKeys.SIZE, name + ": table key"));
            byte[] writable = reader.bytes(reader.count(name + ": writable indexes", 1), name + ": writable indexes");
            byte[] readonly = reader.bytes(reader.count(name + ": read-only indexes", 1), name + ": read-only indexes");
            lookups.add(new AddressTableLookup(table, unsigned(writable), unsigned(readonly)));
        }
        return lookups;
    }

    private static List<Integer> unsigned(byte[] indexes) {
        List<Integer> out = new ArrayList<>(indexes.length);
        for (byte index : indexes) {
            out.add(index & 0xff);
        }
        return out;
    }

    private static void checkHeader(SolanaMessage message) {
        MessageHeader header = message.header();
        if (header.requiredSignatures() == 0) {
            throw new TransactionFormatException("the message header requires no signature; the fee payer must sign");
        }
        if (header.readonlySigned() >= header.requiredSignatures()) {
            throw new TransactionFormatException("the message header makes all " + header.requiredSignatures()
                    + " signers read-only; the fee payer must be a writable signer");
        }
        if (header.requiredSignatures() + header.readonlyUnsigned()
                > message.staticKeys().size()) {
            throw new TransactionFormatException("the message header counts " + header.requiredSignatures()
                    + " signers and " + header.readonlyUnsigned() + " read-only unsigned accounts, more than its "
                    + message.staticKeys().size() + " account keys");
        }
    }

    private static void checkKeys(SolanaMessage message) {
        Map<String, Integer> seen = new HashMap<>();
        for (int i = 0; i < message.staticKeys().size(); i++) {
            Integer earlier = seen.putIfAbsent(message.staticKeys().get(i), i);
            if (earlier != null) {
                throw new TransactionFormatException("account keys " + earlier + " and " + i + " are the same key");
            }
        }
        for (int i = 0; i < message.lookups().size(); i++) {
            if (message.lookups().get(i).loadedCount() == 0) {
                throw new TransactionFormatException("address table lookup " + i + " loads no account");
            }
        }
        if (message.accountCount() > MAX_ACCOUNTS) {
            throw new TransactionFormatException("the message has " + message.accountCount()
                    + " accounts; instructions can index at most " + MAX_ACCOUNTS);
        }
    }

    private static void checkInstructions(SolanaMessage message) {
        int staticCount = message.staticKeys().size();
        int accountCount = message.accountCount();
        for (int i = 0; i < message.instructions().size(); i++) {
            CompiledInstruction instruction = message.instructions().get(i);
            int program = instruction.programIndex();
            if (program == 0) {
                throw new TransactionFormatException("instruction " + i + ": its program is the fee payer (account 0)");
            }
            if (program >= accountCount) {
                throw new TransactionFormatException("instruction " + i + ": program index " + program
                        + " is out of range (" + accountCount + " accounts)");
            }
            if (program >= staticCount) {
                throw new TransactionFormatException("instruction " + i + ": its program comes from an address "
                        + "lookup table, which Solana refuses");
            }
            List<Integer> accounts = instruction.accountIndexes();
            for (int j = 0; j < accounts.size(); j++) {
                if (accounts.get(j) >= accountCount) {
                    throw new TransactionFormatException("instruction " + i + ", account " + j + ": index "
                            + accounts.get(j) + " is out of range (" + accountCount + " accounts)");
                }
            }
        }
    }
}
