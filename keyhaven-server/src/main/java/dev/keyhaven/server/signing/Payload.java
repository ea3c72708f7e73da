package dev.keyhaven.server.signing;

import dev.keyhaven.crypto.eth.Eip712;
import dev.keyhaven.crypto.eth.Eip7702;
import dev.keyhaven.server.api.ApiException;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.Map;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * A payload decoded per its encoding, before any curve is known: raw bytes (hex or UTF-8 text), or the digest an
 * Ethereum standard defines for structured data (EIP-712 typed data, EIP-7702 authorization).
 */
sealed interface Payload {

    /** Bytes to hash (ECDSA) or to sign as they are (Ed25519). */
    record Raw(byte[] bytes) implements Payload {}

    /**
     * A 32-byte digest fixed by the encoding's standard (keccak-256 based), with the structured data it was computed
     * from (policies read it as {@code eth.eip_712} or {@code eth.eip_7702_authorization}).
     */
    record StructuredDigest(byte[] digest, Map<String, Object> data) implements Payload {}

    /**
     * Decodes {@code payload}; every problem is a 400 naming {@code field}.
     */
    static Payload decode(PayloadEncoding encoding, String payload, String field) {
        return switch (encoding) {
            case PAYLOAD_ENCODING_HEXADECIMAL -> new Raw(hex(payload, field));
            case PAYLOAD_ENCODING_TEXT_UTF8 -> new Raw(payload.getBytes(StandardCharsets.UTF_8));
            case PAYLOAD_ENCODING_EIP712 -> {
                Map<String, Object> typedData = json(payload, field);
                try {
                    yield new StructuredDigest(Eip712.hash(typedData), typedData);
                } catch (IllegalArgumentException e) {
                    throw ApiException.badField(field, "is not valid EIP-712 typed data: " + e.getMessage());
                }
            }
            case PAYLOAD_ENCODING_EIP7702_AUTHORIZATION -> {
                Map<String, Object> authorization = json(payload, field);
                try {
                    yield new StructuredDigest(Eip7702.authorizationDigest(authorization), authorization);
                } catch (IllegalArgumentException e) {
                    throw ApiException.badField(field, "is not a valid EIP-7702 authorization: " + e.getMessage());
                }
            }
        };
    }

    /** Hex with or without {@code 0x}, as viem sends digests with it and other clients without. */
    private static byte[] hex(String payload, String field) {
        String digits = payload.startsWith("0x") || payload.startsWith("0X") ? payload.substring(2) : payload;
        if (digits.length() % 2 != 0) {
            throw ApiException.badField(field, "must be hexadecimal with an even number of digits");
        }
        try {
            return HexFormat.of().parseHex(digits);
        } catch (IllegalArgumentException e) {
            throw ApiException.badField(field, "must be hexadecimal (0-9, a-f)");
        }
    }

    /** Reads structured payloads; numbers stay exact (uint256 values exceed a long). Immutable and shared. */
    final class StructuredJson {
        static final JsonMapper MAPPER = JsonMapper.builder()
                .enable(DeserializationFeature.USE_BIG_INTEGER_FOR_INTS)
                .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
                .build();

        private StructuredJson() {}
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> json(String payload, String field) {
        try {
            Object parsed = StructuredJson.MAPPER.readValue(payload, Object.class);
            if (parsed instanceof Map<?, ?> map) {
                return (Map<String, Object>) map;
            }
        } catch (JacksonException e) {
            throw ApiException.badField(field, "must be a JSON object");
        }
        throw ApiException.badField(field, "must be a JSON object");
    }
}
