package dev.keyhaven.crypto.hd;

/**
 * A phrase that is not a valid BIP-39 English mnemonic. The message says what is wrong (word count, the position of
 * an unknown word, the checksum) and never quotes the phrase: callers may show or log it as it is.
 */
public final class InvalidMnemonicException extends IllegalArgumentException {
    public InvalidMnemonicException(String message) {
        super(message);
    }
}
