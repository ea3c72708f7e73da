package dev.keyhaven.chains.solana;

import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;

/**
 * An instruction of an Anchor IDL.
 *
 * @param name as the IDL writes it
 * @param discriminator the bytes its data starts with: given by the IDL since Anchor 0.30, and before that the first
 *     8 bytes of SHA-256 of {@code global:} and the name in snake case
 */
record IdlInstruction(String name, byte[] discriminator, List<IdlAccountSlot> accounts, List<IdlField> args) {
    IdlInstruction {
        discriminator = discriminator.clone();
        accounts = List.copyOf(accounts);
        args = List.copyOf(args);
    }

    @Override
    public byte[] discriminator() {
        return discriminator.clone();
    }

    String discriminatorHex() {
        return HexFormat.of().formatHex(discriminator);
    }

    boolean matches(byte[] data) {
        return data.length >= discriminator.length
                && Arrays.equals(data, 0, discriminator.length, discriminator, 0, discriminator.length);
    }
}
