package dev.keyhaven.chains.solana;

import dev.keyhaven.chains.TransactionFormatException;
import dev.keyhaven.policy.IntValue;
import dev.keyhaven.policy.Value;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Decodes an instruction's Borsh-encoded arguments into policy values, as the program itself would: exact lengths, a
 * bool or an option tag only 0 or 1, a known enum variant, valid UTF-8, no trailing bytes. Anything else is a
 * {@link TransactionFormatException}, which the caller binds as unreadable rather than guess.
 *
 * <p>How Borsh values become policy values: integers are ints (an {@code i256} below the language's range is
 * unreadable); {@code f32}/{@code f64} are strings of their shortest decimal text ({@code "0.0025"}), the language
 * having no floats; pubkeys are Base58 strings; {@code bytes} are lowercase hex strings; structs with named fields are
 * maps, tuple structs and vecs and arrays are lists; a unit enum variant is its name as a string, any other variant a
 * one-entry map from its name to its fields (a map, or a list for a tuple variant). An absent option leaves its field
 * or argument out (a policy reading it gets "does not apply"); where it has no name (in a list or tuple) it is an
 * empty map.
 *
 * <p>Nesting (recursive and alias types included) is bounded by {@link #MAX_DEPTH}, and the number of values by
 * {@link #MAX_VALUES}, so neither a hostile IDL nor hostile data can make decoding run long.
 */
final class BorshDecoder {
    static final int MAX_DEPTH = 32;
    static final int MAX_VALUES = 4096;
    private static final Value ABSENT_IN_LIST = Value.struct(Map.of());

    private final AnchorIdl idl;
    private final byte[] data;
    private int position;
    private int valuesLeft = MAX_VALUES;

    private BorshDecoder(AnchorIdl idl, byte[] data, int position) {
        this.idl = idl;
        this.data = data;
        this.position = position;
    }

    /** The arguments of {@code instruction}, whose discriminator {@code data} starts with, by name. */
    static Map<String, Value> arguments(AnchorIdl idl, IdlInstruction instruction, byte[] data) {
        BorshDecoder decoder = new BorshDecoder(idl, data, instruction.discriminator().length);
        Map<String, Value> arguments = decoder.named(instruction.args(), 0);
        if (decoder.position != data.length) {
            throw failure(decoder.position, (data.length - decoder.position) + " bytes are left after the arguments");
        }
        return arguments;
    }

    private Map<String, Value> named(List<IdlField> fields, int depth) {
        Map<String, Value> out = new HashMap<>();
        for (IdlField field : fields) {
            present(field.type(), depth).ifPresent(value -> out.put(field.name(), value));
        }
        return out;
    }

    /** The value of {@code type}, or empty for an absent option (through aliases too). */
    private Optional<Value> present(IdlType type, int depth) {
        if (type instanceof IdlType.OptionOf(IdlType inner)) {
            count(depth);
            int tag = u8("option tag");
            return switch (tag) {
                case 0 -> Optional.empty();
                case 1 -> Optional.of(read(inner, depth + 1));
                default -> throw failure(position - 1, "option tag " + tag + " is neither 0 nor 1");
            };
        }
        if (type instanceof IdlType.Defined(String name)
                && definition(name) instanceof IdlTypeDef.AliasDef(IdlType target)) {
            count(depth);
            return present(target, depth + 1);
        }
        return Optional.of(read(type, depth));
    }

    private Value read(IdlType type, int depth) {
        return switch (type) {
            case IdlType.OptionOf _ -> present(type, depth).orElse(ABSENT_IN_LIST);
            case IdlType.Defined(String name) -> defined(name, depth);
            case IdlType.Primitive primitive -> {
                count(depth);
                yield primitive(primitive);
            }
            case IdlType.VecOf(IdlType element) -> {
                count(depth);
                yield sequence(element, u32("vec length"), depth);
            }
            case IdlType.ArrayOf(IdlType element, int length) -> {
                count(depth);
                yield sequence(element, length, depth);
            }
            case IdlType.Unsupported(String construct) ->
                throw failure("the IDL uses " + construct + ", which Keyhaven does not decode");
        };
    }

    private Value defined(String name, int depth) {
        count(depth);
        return switch (definition(name)) {
            case IdlTypeDef.StructDef(IdlFields fields) -> fields(fields, depth + 1);
            case IdlTypeDef.EnumDef(List<IdlTypeDef.Variant> variants) -> variant(name, variants, depth + 1);
            case IdlTypeDef.AliasDef(IdlType target) -> read(target, depth + 1);
            case IdlTypeDef.Undecodable(String why) -> throw failure("type " + name + " is not decoded: " + why);
        };
    }

    private Value fields(IdlFields fields, int depth) {
        return switch (fields) {
            case IdlFields.Named(List<IdlField> named) -> Value.struct(named(named, depth));
            case IdlFields.Tuple(List<IdlType> types) -> {
                List<Value> values = new ArrayList<>(types.size());
                for (IdlType type : types) {
                    values.add(read(type, depth));
                }
                yield Value.list(values);
            }
            case IdlFields.Unit _ -> Value.struct(Map.of());
        };
    }

    private Value variant(String name, List<IdlTypeDef.Variant> variants, int depth) {
        int tag = u8("enum variant");
        if (tag >= variants.size()) {
            throw failure(position - 1, "variant " + tag + " of enum " + name + ", which has " + variants.size());
        }
        IdlTypeDef.Variant variant = variants.get(tag);
        if (variant.fields() instanceof IdlFields.Unit) {
            return Value.of(variant.name());
        }
        return Value.struct(Map.of(variant.name(), fields(variant.fields(), depth)));
    }

    private IdlTypeDef definition(String name) {
        return idl.type(name).orElseThrow(() -> failure("the IDL does not define type " + name));
    }

    private void count(int depth) {
        if (depth > MAX_DEPTH) {
            throw failure("types nest deeper than " + MAX_DEPTH + " levels");
        }
        if (--valuesLeft < 0) {
            throw failure("more than " + MAX_VALUES + " values");
        }
    }

    private Value sequence(IdlType element, long length, int depth) {
        List<Value> elements = new ArrayList<>();
        for (long i = 0; i < length; i++) {
            elements.add(read(element, depth + 1));
        }
        return Value.list(elements);
    }

    private TransactionFormatException failure(String message) {
        return failure(position, message);
    }

    private static TransactionFormatException failure(int offset, String message) {
        return new TransactionFormatException(message + " (at byte " + offset + " of the data)");
    }

    private int u8(String what) {
        return take(1, what)[0] & 0xff;
    }

    private long u32(String what) {
        return LittleEndian.unsigned(take(4, what), 0, 4).longValue();
    }

    private byte[] take(long length, String what) {
        if (length > data.length - position) {
            throw failure(what + " needs " + length + " bytes, " + (data.length - position) + " remain");
        }
        byte[] out = Arrays.copyOfRange(data, position, position + (int) length);
        position += (int) length;
        return out;
    }

    private Value primitive(IdlType.Primitive type) {
        return switch (type) {
            case BOOL -> bool();
            case U8 -> unsigned(1);
            case U16 -> unsigned(2);
            case U32 -> unsigned(4);
            case U64 -> unsigned(8);
            case U128 -> unsigned(16);
            case U256 -> unsigned(32);
            case I8 -> signed(1);
            case I16 -> signed(2);
            case I32 -> signed(4);
            case I64 -> signed(8);
            case I128 -> signed(16);
            case I256 -> signed(32);
            case F32 -> Value.of(decimal(Float.intBitsToFloat((int) u32("f32"))));
            case F64 ->
                Value.of(decimal(Double.longBitsToDouble(
                        LittleEndian.unsigned(take(8, "f64"), 0, 8).longValue())));
            case STRING -> Value.of(utf8(take(u32("string length"), "string")));
            case BYTES -> Value.of(HexFormat.of().formatHex(take(u32("bytes length"), "bytes")));
            case PUBKEY -> Value.of(SolanaKeys.base58(take(SolanaKeys.SIZE, "pubkey")));
        };
    }

    private Value bool() {
        int b = u8("bool");
        if (b > 1) {
            throw failure(position - 1, "bool byte " + b + " is neither 0 nor 1");
        }
        return Value.of(b == 1);
    }

    private Value unsigned(int size) {
        return Value.of(LittleEndian.unsigned(take(size, "u" + size * 8), 0, size));
    }

    private Value signed(int size) {
        BigInteger value = LittleEndian.signed(take(size, "i" + size * 8), 0, size);
        return IntValue.inRange(value)
                ? Value.of(value)
                : Value.unreadable("an i" + size * 8 + " below the policy language's smallest integer");
    }

    private String utf8(byte[] bytes) {
        try {
            return StandardCharsets.UTF_8
                    .newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes))
                    .toString();
        } catch (CharacterCodingException e) {
            throw failure(position - bytes.length, "a string is not valid UTF-8");
        }
    }

    /** The shortest decimal text that reads back as the same float, without exponent: 0.0025, 1.5, 10000000000. */
    static String decimal(double value) {
        if (!Double.isFinite(value)) {
            return Double.toString(value);
        }
        return new BigDecimal(Double.toString(value)).stripTrailingZeros().toPlainString();
    }

    static String decimal(float value) {
        if (!Float.isFinite(value)) {
            return Float.toString(value);
        }
        return new BigDecimal(Float.toString(value)).stripTrailingZeros().toPlainString();
    }
}
