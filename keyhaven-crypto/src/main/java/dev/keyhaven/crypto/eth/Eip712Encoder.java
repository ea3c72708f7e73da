package dev.keyhaven.crypto.eth;

import dev.keyhaven.crypto.Digests;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

/**
 * EIP-712 {@code encodeData}/{@code hashStruct} over parsed JSON values, following viem's {@code hashTypedData}.
 *
 * <p>A member that is absent or null is an error, whatever its type. viem fails the same way (eth_signTypedData_v4
 * as implemented by MetaMask's eth-sig-util instead hashes a missing struct member as 32 zero bytes); silently
 * signing zeros for a field the caller forgot would produce a signature over something they did not mean. Members of
 * the value that the type does not declare are ignored, as every implementation does.
 */
final class Eip712Encoder {
    /** Nesting of structs and arrays allowed in a value; real payloads stay far below it, stack overflows do not. */
    static final int MAX_DEPTH = 64;

    private static final BigInteger TWO_TO_256 = BigInteger.ONE.shiftLeft(256);

    private final Eip712Types types;

    Eip712Encoder(Eip712Types types) {
        this.types = types;
    }

    /** keccak256(typeHash ‖ encodeData(value)); {@code path} names the value in error messages. */
    byte[] hashStruct(String struct, Object value, String path) {
        return hashStruct(struct, value, path, 0);
    }

    private byte[] hashStruct(String struct, Object value, String path, int depth) {
        if (!(value instanceof Map<?, ?> map)) {
            throw invalid(path, struct, value == null ? "is missing" : "must be an object");
        }
        List<Eip712Types.Member> members = types.members(struct);
        byte[] encoded = new byte[32 * (members.size() + 1)];
        System.arraycopy(types.typeHash(struct), 0, encoded, 0, 32);
        int at = 32;
        for (Eip712Types.Member member : members) {
            String memberPath = path + "." + member.name();
            Object memberValue = map.get(member.name());
            if (memberValue == null) {
                throw invalid(memberPath, member.declaredType(), "is missing");
            }
            System.arraycopy(encode(member.type(), memberValue, memberPath, depth), 0, encoded, at, 32);
            at += 32;
        }
        return Digests.keccak256(encoded);
    }

    /** The 32-byte encoding of one value: atomic values in place, everything else hashed. */
    private byte[] encode(FieldType type, Object value, String path, int depth) {
        if (depth >= MAX_DEPTH) {
            throw invalid(path, type.solidityName(), "is nested more than " + MAX_DEPTH + " levels deep");
        }
        try {
            return switch (type) {
                case FieldType.Struct struct -> hashStruct(struct.name(), value, path, depth + 1);
                case FieldType.Array array -> encodeArray(array, value, path, depth + 1);
                case FieldType.Int integer -> encodeInt(integer, EthValues.integer(value));
                case FieldType.FixedBytes fixed -> encodeFixedBytes(fixed, EthValues.hexBytes(value));
                case FieldType.Bool bool -> encodeBool(value);
                case FieldType.Address address -> leftPad(EthValues.address(value));
                case FieldType.Text text -> Digests.keccak256(string(value).getBytes(StandardCharsets.UTF_8));
                case FieldType.DynamicBytes bytes -> Digests.keccak256(EthValues.hexBytes(value));
            };
        } catch (InvalidTypedDataException e) {
            throw e;
        } catch (IllegalArgumentException e) {
            throw invalid(path, type.solidityName(), e.getMessage());
        }
    }

    /** keccak256 of the concatenated encodings of the elements (structs as their hashStruct). */
    private byte[] encodeArray(FieldType.Array array, Object value, String path, int depth) {
        if (!(value instanceof List<?> list)) {
            throw new IllegalArgumentException("must be an array");
        }
        if (array.length() != FieldType.Array.DYNAMIC && list.size() != array.length()) {
            throw new IllegalArgumentException("must have exactly " + array.length() + " elements, has " + list.size());
        }
        byte[] encoded = new byte[32 * list.size()];
        for (int i = 0; i < list.size(); i++) {
            System.arraycopy(encode(array.element(), list.get(i), path + "[" + i + "]", depth), 0, encoded, 32 * i, 32);
        }
        return Digests.keccak256(encoded);
    }

    /** Range-checked, then two's complement in 256 bits (sign-extended, as the spec requires). */
    private static byte[] encodeInt(FieldType.Int type, BigInteger value) {
        boolean inRange = type.signed()
                ? value.bitLength() < type.bits()
                : value.signum() >= 0 && value.bitLength() <= type.bits();
        if (!inRange) {
            throw new IllegalArgumentException("is out of range");
        }
        return toWord(value.signum() < 0 ? value.add(TWO_TO_256) : value);
    }

    private static byte[] encodeFixedBytes(FieldType.FixedBytes type, byte[] bytes) {
        // viem and ethers both insist on exactly N bytes rather than padding a shorter value.
        if (bytes.length != type.size()) {
            throw new IllegalArgumentException("must be exactly " + type.size() + " bytes, got " + bytes.length);
        }
        byte[] word = new byte[32];
        System.arraycopy(bytes, 0, word, 0, bytes.length);
        return word;
    }

    private static byte[] encodeBool(Object value) {
        if (!(value instanceof Boolean b)) {
            throw new IllegalArgumentException("must be true or false");
        }
        byte[] word = new byte[32];
        word[31] = (byte) (b ? 1 : 0);
        return word;
    }

    private static String string(Object value) {
        if (!(value instanceof String s)) {
            throw new IllegalArgumentException("must be a string");
        }
        return s;
    }

    private static byte[] leftPad(byte[] bytes) {
        byte[] word = new byte[32];
        System.arraycopy(bytes, 0, word, 32 - bytes.length, bytes.length);
        return word;
    }

    private static byte[] toWord(BigInteger nonNegative) {
        byte[] raw = nonNegative.toByteArray();
        int copy = Math.min(raw.length, 32);
        byte[] word = new byte[32];
        System.arraycopy(raw, raw.length - copy, word, 32 - copy, copy);
        return word;
    }

    private static InvalidTypedDataException invalid(String path, String type, String problem) {
        return new InvalidTypedDataException(path + " (" + type + ") " + problem);
    }
}
