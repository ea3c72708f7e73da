package dev.keyhaven.chains.solana;

import java.util.Arrays;
import java.util.Optional;

/** The type of an Anchor IDL argument or field, as both IDL formats (before and since Anchor 0.30) write it. */
sealed interface IdlType {

    /** The built-in types, with the names IDLs give them. */
    enum Primitive implements IdlType {
        BOOL("bool"),
        U8("u8"),
        I8("i8"),
        U16("u16"),
        I16("i16"),
        U32("u32"),
        I32("i32"),
        U64("u64"),
        I64("i64"),
        U128("u128"),
        I128("i128"),
        U256("u256"),
        I256("i256"),
        F32("f32"),
        F64("f64"),
        STRING("string"),
        BYTES("bytes"),
        PUBKEY("pubkey");

        private final String idlName;

        Primitive(String idlName) {
            this.idlName = idlName;
        }

        /** The type an IDL names {@code name}; {@code publicKey} is the pre-0.30 name of {@code pubkey}. */
        static Optional<Primitive> named(String name) {
            String modern = name.equals("publicKey") ? PUBKEY.idlName : name;
            return Arrays.stream(values())
                    .filter(type -> type.idlName.equals(modern))
                    .findFirst();
        }
    }

    /** {@code {"vec": T}}: a u32 count, then the elements. */
    record VecOf(IdlType element) implements IdlType {}

    /** {@code {"array": [T, n]}}: exactly n elements, no count. */
    record ArrayOf(IdlType element, int length) implements IdlType {}

    /** {@code {"option": T}}: a byte 0 (none) or 1 followed by the value. */
    record OptionOf(IdlType value) implements IdlType {}

    /** {@code {"defined": ...}}: a struct, enum or alias of the IDL's {@code types}. */
    record Defined(String name) implements IdlType {}

    /**
     * Something the IDL format allows that Keyhaven does not decode (generic parameters, {@code coption}): the IDL is
     * accepted, and an instruction whose arguments use it is bound as unreadable.
     *
     * @param construct what it is, in words, for the unreadable value's reason
     */
    record Unsupported(String construct) implements IdlType {}
}
