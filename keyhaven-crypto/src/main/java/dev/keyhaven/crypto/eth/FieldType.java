package dev.keyhaven.crypto.eth;

/**
 * The type of one EIP-712 struct member, resolved from its declared name ({@code "uint256"}, {@code "Person[]"},
 * {@code "bytes32[2]"}). Each kind encodes differently, so the encoder switches over this exhaustively.
 */
sealed interface FieldType {

    /** The canonical Solidity spelling, used in error messages. */
    String solidityName();

    /** A reference to another struct in {@code types}. */
    record Struct(String name) implements FieldType {
        @Override
        public String solidityName() {
            return name;
        }
    }

    /** {@code T[]} when {@code length} is {@link #DYNAMIC}, else {@code T[length]}. */
    record Array(FieldType element, int length) implements FieldType {
        static final int DYNAMIC = -1;

        @Override
        public String solidityName() {
            return element.solidityName() + "[" + (length == DYNAMIC ? "" : Integer.toString(length)) + "]";
        }
    }

    /** {@code uintN} or {@code intN}, N a multiple of 8 from 8 to 256. */
    record Int(boolean signed, int bits) implements FieldType {
        @Override
        public String solidityName() {
            return (signed ? "int" : "uint") + bits;
        }
    }

    /** {@code bytesN}, N from 1 to 32. */
    record FixedBytes(int size) implements FieldType {
        @Override
        public String solidityName() {
            return "bytes" + size;
        }
    }

    record Bool() implements FieldType {
        @Override
        public String solidityName() {
            return "bool";
        }
    }

    record Address() implements FieldType {
        @Override
        public String solidityName() {
            return "address";
        }
    }

    /** {@code string}: hashed as its UTF-8 bytes. */
    record Text() implements FieldType {
        @Override
        public String solidityName() {
            return "string";
        }
    }

    /** {@code bytes}: hashed. */
    record DynamicBytes() implements FieldType {
        @Override
        public String solidityName() {
            return "bytes";
        }
    }

    /**
     * The elementary (non-struct, non-array) type with this exact name, or null. There are no aliases: EIP-712 has
     * no bare {@code uint}/{@code int}, and viem rejects them too.
     */
    static FieldType elementary(String name) {
        switch (name) {
            case "bool":
                return new Bool();
            case "address":
                return new Address();
            case "string":
                return new Text();
            case "bytes":
                return new DynamicBytes();
            default:
                break;
        }
        if (name.startsWith("bytes")) {
            int size = size(name.substring(5));
            return size >= 1 && size <= 32 ? new FixedBytes(size) : null;
        }
        boolean signed = name.startsWith("int");
        if (signed || name.startsWith("uint")) {
            int bits = size(name.substring(signed ? 3 : 4));
            return bits >= 8 && bits <= 256 && bits % 8 == 0 ? new Int(signed, bits) : null;
        }
        return null;
    }

    /** A decimal size without sign or leading zeros, or -1. */
    private static int size(String digits) {
        if (digits.isEmpty() || digits.length() > 3 || digits.charAt(0) == '0') {
            return -1;
        }
        for (int i = 0; i < digits.length(); i++) {
            if (digits.charAt(i) < '0' || digits.charAt(i) > '9') {
                return -1;
            }
        }
        return Integer.parseInt(digits);
    }
}
