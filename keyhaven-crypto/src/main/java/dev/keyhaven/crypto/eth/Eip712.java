package dev.keyhaven.crypto.eth;

import dev.keyhaven.crypto.Digests;
import java.util.Map;
import java.util.Objects;

/**
 * EIP-712 typed-data hashing (eth_signTypedData_v4 semantics). Input: the parsed JSON of
 * {@code {types, primaryType, domain, message}} as plain Java values ({@code Map<String,Object>},
 * {@code List<Object>}, {@code String}, {@code Boolean}, {@code BigInteger}/{@code Long}/{@code Integer}/
 * {@code BigDecimal}/{@code Double} numbers, null).
 *
 * <p>Behaviour follows viem's {@code hashTypedData}, the library behind {@code @turnkey/viem}:
 * <ul>
 *   <li>{@code types.EIP712Domain} may be absent and is then inferred from the domain's non-null fields among name,
 *       version, chainId, verifyingContract and salt, in that order;
 *   <li>when {@code primaryType} is {@code EIP712Domain} the digest is {@code keccak256(0x1901 ‖ domainSeparator)} and
 *       {@code message} is ignored (viem's serializer omits it in that case);
 *   <li>integers may be JSON numbers, decimal strings or {@code 0x} hex strings, and are range-checked;
 *   <li>{@code bytesN} must be exactly N bytes, addresses with mixed case must carry a valid EIP-55 checksum;
 *   <li>absent or null members are errors, as in viem (eth-sig-util would hash a missing struct as zero); undeclared
 *       extra members are ignored.
 * </ul>
 */
public final class Eip712 {
    private Eip712() {}

    /**
     * keccak256(0x19 0x01 ‖ domainSeparator ‖ hashStruct(primaryType, message)).
     *
     * @throws InvalidTypedDataException naming the problem: missing types/primaryType/domain/message, unknown type,
     *     value out of range for uintN/intN, bad address or bytesN hex, …
     */
    public static byte[] hash(Map<String, Object> typedData) {
        Parsed parsed = parse(typedData);
        byte[] domainSeparator = parsed.encoder.hashStruct(Eip712Types.DOMAIN, parsed.domain, "domain");
        if (Eip712Types.DOMAIN.equals(parsed.primaryType)) {
            return digest(domainSeparator, new byte[0]);
        }
        return digest(domainSeparator, hashMessage(parsed, typedData));
    }

    /** hashStruct(EIP712Domain, domain); visible for tests against published intermediate values. */
    static byte[] domainSeparator(Map<String, Object> typedData) {
        Parsed parsed = parse(typedData);
        return parsed.encoder.hashStruct(Eip712Types.DOMAIN, parsed.domain, "domain");
    }

    /** hashStruct(primaryType, message); visible for tests against published intermediate values. */
    static byte[] hashMessage(Map<String, Object> typedData) {
        return hashMessage(parse(typedData), typedData);
    }

    private static byte[] hashMessage(Parsed parsed, Map<String, Object> typedData) {
        if (!parsed.types.isStruct(parsed.primaryType)) {
            throw new InvalidTypedDataException("primaryType '" + parsed.primaryType + "' is not defined in types");
        }
        Object message = typedData.get("message");
        if (!(message instanceof Map<?, ?>)) {
            throw new InvalidTypedDataException(message == null ? "message is missing" : "message must be an object");
        }
        return parsed.encoder.hashStruct(parsed.primaryType, message, "message");
    }

    private record Parsed(Eip712Types types, Eip712Encoder encoder, String primaryType, Map<?, ?> domain) {}

    private static Parsed parse(Map<String, Object> typedData) {
        Objects.requireNonNull(typedData, "typedData");
        if (!(typedData.get("types") instanceof Map<?, ?> types)) {
            throw new InvalidTypedDataException(
                    typedData.get("types") == null ? "types is missing" : "types must be an object");
        }
        if (!(typedData.get("primaryType") instanceof String primaryType) || primaryType.isEmpty()) {
            throw new InvalidTypedDataException("primaryType must be a non-empty string");
        }
        if (!(typedData.get("domain") instanceof Map<?, ?> domain)) {
            throw new InvalidTypedDataException(
                    typedData.get("domain") == null ? "domain is missing" : "domain must be an object");
        }
        Eip712Types parsedTypes = Eip712Types.parse(types, domain);
        return new Parsed(parsedTypes, new Eip712Encoder(parsedTypes), primaryType, domain);
    }

    private static byte[] digest(byte[] domainSeparator, byte[] messageHash) {
        byte[] data = new byte[2 + domainSeparator.length + messageHash.length];
        data[0] = 0x19;
        data[1] = 0x01;
        System.arraycopy(domainSeparator, 0, data, 2, domainSeparator.length);
        System.arraycopy(messageHash, 0, data, 2 + domainSeparator.length, messageHash.length);
        return Digests.keccak256(data);
    }
}
