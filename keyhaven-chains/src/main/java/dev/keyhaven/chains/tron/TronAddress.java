package dev.keyhaven.chains.tron;

import com.google.protobuf.ByteString;
import dev.keyhaven.chains.TransactionFormatException;
import dev.keyhaven.crypto.address.Base58Text;

/** A Tron address as transactions carry it (0x41 followed by 20 account bytes) and as people write it ({@code T…}). */
final class TronAddress {
    private static final int LENGTH = 21;
    private static final byte PREFIX = 0x41;

    private TronAddress() {}

    /**
     * The Base58Check text of {@code bytes}, or {@code ""} for an absent address (protobuf's default, which the chain
     * refuses where an address is required: bound as the default so a policy sees what is there).
     *
     * @throws TransactionFormatException for anything else than 21 bytes starting with 0x41
     */
    static String text(ByteString bytes, String where) {
        if (bytes.isEmpty()) {
            return "";
        }
        if (bytes.size() != LENGTH) {
            throw new TransactionFormatException(
                    where + " is " + bytes.size() + " bytes long; a Tron address is 21 bytes starting with 0x41");
        }
        if (bytes.byteAt(0) != PREFIX) {
            throw new TransactionFormatException(where + " does not start with 0x41, the prefix of Tron addresses");
        }
        return Base58Text.encodeCheck(bytes.toByteArray());
    }
}
