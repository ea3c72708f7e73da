package dev.keyhaven.crypto.eth;

/**
 * EIP-712 typed data that cannot be hashed. The message names the offending part (for example
 * {@code message.to[1].wallet}) and the problem; it never repeats the offending value.
 */
public final class InvalidTypedDataException extends IllegalArgumentException {
    public InvalidTypedDataException(String message) {
        super(message);
    }
}
