package dev.keyhaven.crypto.address;

import java.util.Arrays;

/**
 * Native segregated-witness addresses: the witness version as the first 5-bit value, then the witness program.
 * Version 0 uses Bech32 (BIP-173), versions 1 to 16 Bech32m (BIP-350); P2TR is version 1.
 */
public final class SegwitAddress {
    /** A witness version and program. */
    record Program(int version, byte[] program) {}

    private SegwitAddress() {}

    public static String encode(String hrp, int version, byte[] program) {
        check(version, program);
        byte[] converted = Bech32.convertBits(program, 8, 5, true);
        byte[] data = new byte[1 + converted.length];
        data[0] = (byte) version;
        System.arraycopy(converted, 0, data, 1, converted.length);
        return Bech32.encode(hrp, data, variantFor(version));
    }

    /**
     * Decodes an address for the network whose human-readable part is {@code hrp}.
     *
     * @throws IllegalArgumentException when the string is not valid Bech32/Bech32m, is for another network, uses the
     *     wrong checksum variant for its version, or carries a program of the wrong size
     */
    static Program decode(String hrp, String address) {
        Bech32.Decoded decoded = Bech32.decode(address);
        if (!decoded.hrp().equals(hrp)) {
            throw new IllegalArgumentException("address is not for the network with prefix " + hrp);
        }
        byte[] data = decoded.data();
        if (data.length == 0) {
            throw new IllegalArgumentException("segwit address has no witness version");
        }
        int version = data[0];
        if (version > 16) {
            throw new IllegalArgumentException("witness version above 16");
        }
        if (decoded.variant() != variantFor(version)) {
            throw new IllegalArgumentException("witness version " + version + " requires " + variantFor(version));
        }
        byte[] program = Bech32.convertBits(Arrays.copyOfRange(data, 1, data.length), 5, 8, false);
        check(version, program);
        return new Program(version, program);
    }

    private static Bech32.Variant variantFor(int version) {
        return version == 0 ? Bech32.Variant.BECH32 : Bech32.Variant.BECH32M;
    }

    private static void check(int version, byte[] program) {
        if (version < 0 || version > 16) {
            throw new IllegalArgumentException("witness version must be 0 to 16");
        }
        if (program.length < 2 || program.length > 40) {
            throw new IllegalArgumentException("witness program must be 2 to 40 bytes");
        }
        if (version == 0 && program.length != 20 && program.length != 32) {
            // BIP-141: version 0 programs are P2WPKH (20 bytes) or P2WSH (32 bytes).
            throw new IllegalArgumentException("witness version 0 program must be 20 or 32 bytes");
        }
    }
}
