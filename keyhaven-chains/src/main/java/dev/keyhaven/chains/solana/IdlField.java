package dev.keyhaven.chains.solana;

/** A named argument of an instruction, or a named field of a struct or enum variant. */
record IdlField(String name, IdlType type) {}
