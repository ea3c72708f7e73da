package dev.keyhaven.chains;

/**
 * An unsigned transaction, PSBT or contract interface that Keyhaven cannot read: truncated, oversized, of an unknown
 * version, or with a field of the wrong length. The message says what is wrong and where (a byte offset, an input
 * index, a field name) in words a client can act on; it never quotes the input itself, which may be large.
 */
public class TransactionFormatException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    public TransactionFormatException(String message) {
        super(message);
    }

    public TransactionFormatException(String message, Throwable cause) {
        super(message, cause);
    }
}
