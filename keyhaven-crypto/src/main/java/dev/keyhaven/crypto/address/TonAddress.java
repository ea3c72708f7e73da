package dev.keyhaven.crypto.address;

import java.util.Base64;
import java.util.HexFormat;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * TON account addresses (TEP-2): the raw form {@code workchain:hex} and the 48-character user-friendly form
 * {@code base64(tag ‖ workchain:int8 ‖ hash ‖ CRC16-XMODEM big-endian)}.
 */
final class TonAddress {
    /** The flags of a user-friendly string. */
    record Form(boolean bounceable, boolean testnetOnly, boolean urlSafe) {}

    /** A workchain and 32-byte account id. */
    record Raw(int workchain, byte[] hash) {}

    /**
     * The string form Keyhaven returns for TON accounts: bounceable, mainnet, url-safe ({@code EQ…}). Turnkey does not
     * document its choice; this is the recommendation of addresses.md §3.14 and §6 question 3 (the default of
     * {@code @ton/core} {@code Address.toString()} and tonlib-rs {@code to_base64_url()}). It is also the canonical form
     * {@link Addresses#lookupKey(String)} maps every other form to.
     */
    static final Form STRING_FORM = new Form(true, false, true);

    private static final int BOUNCEABLE = 0x11;
    private static final int NON_BOUNCEABLE = 0x51;
    private static final int TESTNET_ONLY = 0x80;
    private static final Pattern RAW = Pattern.compile("(-?[0-9]{1,3}):([0-9a-fA-F]{64})");
    private static final Pattern FRIENDLY = Pattern.compile("[A-Za-z0-9+/_-]{48}");

    private TonAddress() {}

    static String friendly(int workchain, byte[] hash, Form form) {
        byte[] body = new byte[36];
        body[0] = (byte) ((form.bounceable() ? BOUNCEABLE : NON_BOUNCEABLE) | (form.testnetOnly() ? TESTNET_ONLY : 0));
        body[1] = (byte) workchain;
        System.arraycopy(hash, 0, body, 2, 32);
        int crc = Crc16Xmodem.compute(body, 0, 34);
        body[34] = (byte) (crc >>> 8);
        body[35] = (byte) crc;
        return (form.urlSafe() ? Base64.getUrlEncoder() : Base64.getEncoder()).encodeToString(body);
    }

    /** Parses the raw form or any user-friendly form (either base64 alphabet, any flags); empty if it is neither. */
    static Optional<Raw> parse(String address) {
        var raw = RAW.matcher(address);
        if (raw.matches()) {
            int workchain = Integer.parseInt(raw.group(1));
            return workchain < Byte.MIN_VALUE || workchain > Byte.MAX_VALUE
                    ? Optional.empty()
                    : Optional.of(new Raw(workchain, HexFormat.of().parseHex(raw.group(2))));
        }
        if (!FRIENDLY.matcher(address).matches()) {
            return Optional.empty();
        }
        byte[] body = Base64.getDecoder().decode(address.replace('-', '+').replace('_', '/'));
        int tag = body[0] & ~TESTNET_ONLY & 0xff;
        int crc = ((body[34] & 0xff) << 8) | (body[35] & 0xff);
        if ((tag != BOUNCEABLE && tag != NON_BOUNCEABLE) || crc != Crc16Xmodem.compute(body, 0, 34)) {
            return Optional.empty();
        }
        byte[] hash = new byte[32];
        System.arraycopy(body, 2, hash, 0, 32);
        return Optional.of(new Raw(body[1], hash));
    }
}
