package dev.keyhaven.chains.solana;

import java.util.List;

/** A definition in an Anchor IDL's {@code types}: what {@link IdlType.Defined} names. */
sealed interface IdlTypeDef {

    record StructDef(IdlFields fields) implements IdlTypeDef {}

    /** Borsh writes the variant's index as one byte, then its fields. */
    record EnumDef(List<Variant> variants) implements IdlTypeDef {
        public EnumDef {
            variants = List.copyOf(variants);
        }
    }

    record Variant(String name, IdlFields fields) {}

    /** {@code "kind": "type"} since Anchor 0.30, {@code "kind": "alias"} before. */
    record AliasDef(IdlType target) implements IdlTypeDef {}

    /**
     * A definition Keyhaven accepts but does not decode (a generic type, or one stored with bytemuck rather than
     * Borsh): instructions whose arguments use it are bound as unreadable.
     */
    record Undecodable(String why) implements IdlTypeDef {}
}
