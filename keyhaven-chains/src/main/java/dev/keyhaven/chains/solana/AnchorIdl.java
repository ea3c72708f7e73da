package dev.keyhaven.chains.solana;

import dev.keyhaven.chains.TransactionFormatException;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The Anchor IDL uploaded for a program: how its instructions' data decodes into named arguments, and what its
 * accounts are called. Both formats are read: Anchor before 0.30 ({@code isMut}, {@code isSigner},
 * {@code isOptional}, {@code defined: "Name"}, discriminators derived from names) and since
 * ({@code discriminator}, {@code writable}, {@code signer}, {@code optional}, {@code defined: {name}}).
 * Immutable once parsed, so the server can parse an uploaded IDL once and share it.
 */
public final class AnchorIdl {
    private final List<IdlInstruction> instructions;
    private final Map<String, IdlTypeDef> types;

    AnchorIdl(List<IdlInstruction> instructions, Map<String, IdlTypeDef> types) {
        this.instructions = List.copyOf(instructions);
        this.types = Map.copyOf(types);
    }

    /**
     * Reads an IDL in either format. Refuses one without {@code instructions} or {@code types} (an empty list when a
     * program defines none), with a type the format does not define, a reference to a type it does not declare, two
     * instructions whose data could not be told apart, or a document beyond Keyhaven's limits (1 MiB, JSON nesting
     * 64 deep).
     *
     * @throws TransactionFormatException naming what is wrong and where (a path such as
     *     {@code instructions[2].args[0].type})
     */
    public static AnchorIdl parse(String json) {
        return AnchorIdlReader.read(json);
    }

    /** The instruction whose discriminator {@code data} starts with; at most one does (checked when parsed). */
    Optional<IdlInstruction> instructionFor(byte[] data) {
        return instructions.stream()
                .filter(instruction -> instruction.matches(data))
                .findFirst();
    }

    Optional<IdlTypeDef> type(String name) {
        return Optional.ofNullable(types.get(name));
    }

    List<IdlInstruction> instructions() {
        return instructions;
    }
}
