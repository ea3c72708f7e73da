package dev.keyhaven.server.signing;

import dev.keyhaven.server.api.WireEnum;

/** How the {@code payload} string becomes bytes (or structured data). */
public enum PayloadEncoding implements WireEnum {
    PAYLOAD_ENCODING_HEXADECIMAL,
    PAYLOAD_ENCODING_TEXT_UTF8,
    /** EIP-712 typed data as JSON ({@code types}, {@code primaryType}, {@code domain}, {@code message}). */
    PAYLOAD_ENCODING_EIP712,
    /** An EIP-7702 authorization as JSON ({@code chainId}, {@code address}, {@code nonce}). */
    PAYLOAD_ENCODING_EIP7702_AUTHORIZATION;

    @Override
    public String wireName() {
        return name();
    }

    boolean isEthereumStructured() {
        return this == PAYLOAD_ENCODING_EIP712 || this == PAYLOAD_ENCODING_EIP7702_AUTHORIZATION;
    }
}
