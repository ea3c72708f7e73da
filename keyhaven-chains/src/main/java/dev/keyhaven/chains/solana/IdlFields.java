package dev.keyhaven.chains.solana;

import java.util.List;

/** The fields of a struct or enum variant: named, positional (a tuple), or none. */
sealed interface IdlFields {
    Unit UNIT = new Unit();

    record Named(List<IdlField> fields) implements IdlFields {
        public Named {
            fields = List.copyOf(fields);
        }
    }

    record Tuple(List<IdlType> types) implements IdlFields {
        public Tuple {
            types = List.copyOf(types);
        }
    }

    /** No fields: a unit enum variant, or a struct declared without any. */
    record Unit() implements IdlFields {}
}
