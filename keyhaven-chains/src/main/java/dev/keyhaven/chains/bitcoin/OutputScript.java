package dev.keyhaven.chains.bitcoin;

import dev.keyhaven.crypto.address.Base58;
import dev.keyhaven.crypto.address.Base58Check;
import dev.keyhaven.crypto.address.BitcoinNetwork;
import dev.keyhaven.crypto.address.SegwitAddress;
import java.util.Arrays;
import java.util.Optional;

/**
 * What an output script is, recognised by its exact bytes as Bitcoin Core's Solver does (so a non-minimal push
 * makes a script non-standard here too), and the address it is paid to on a network.
 *
 * @param type the {@code address_type} policies read: Turnkey's five derivation types, then {@code P2A} (pay to
 *     anchor), {@code WITNESS_UNKNOWN} (a witness version or program length with no meaning yet, which still has a
 *     bech32m address), {@code OP_RETURN} (provably unspendable) and {@code UNKNOWN} (any other script: bare public
 *     keys, bare multisig, non-standard scripts)
 * @param witnessVersion the witness version when the script is a witness program, else -1
 * @param payload the key or script hash (P2PKH, P2SH) or the witness program; empty for the rest
 */
record OutputScript(String type, int witnessVersion, byte[] payload) {
    static final String P2PKH = "P2PKH";
    static final String P2SH = "P2SH";
    static final String P2WPKH = "P2WPKH";
    static final String P2WSH = "P2WSH";
    static final String P2TR = "P2TR";
    static final String P2A = "P2A";
    static final String WITNESS_UNKNOWN = "WITNESS_UNKNOWN";
    static final String OP_RETURN = "OP_RETURN";
    static final String UNKNOWN = "UNKNOWN";

    private static final int OP_0 = 0x00;
    private static final int OP_1 = 0x51;
    private static final int OP_16 = 0x60;
    private static final byte[] ANCHOR_PROGRAM = {0x4e, 0x73};

    static OutputScript of(byte[] script) {
        int n = script.length;
        if (n == 25
                && (script[0] & 0xff) == 0x76
                && (script[1] & 0xff) == 0xa9
                && script[2] == 20
                && (script[23] & 0xff) == 0x88
                && (script[24] & 0xff) == 0xac) {
            return new OutputScript(P2PKH, -1, Arrays.copyOfRange(script, 3, 23));
        }
        if (n == 23 && (script[0] & 0xff) == 0xa9 && script[1] == 20 && (script[22] & 0xff) == 0x87) {
            return new OutputScript(P2SH, -1, Arrays.copyOfRange(script, 2, 22));
        }
        int first = n > 0 ? script[0] & 0xff : -1;
        boolean versionOpcode = first == OP_0 || (first >= OP_1 && first <= OP_16);
        if (versionOpcode && n >= 4 && n <= 42 && script[1] == n - 2) {
            int version = first == OP_0 ? 0 : first - OP_1 + 1;
            byte[] program = Arrays.copyOfRange(script, 2, n);
            return new OutputScript(witnessType(version, program), version, program);
        }
        return new OutputScript(first == 0x6a ? OP_RETURN : UNKNOWN, -1, new byte[0]);
    }

    private static String witnessType(int version, byte[] program) {
        if (version == 0) {
            // BIP-141 gives version 0 only these two program lengths; any other is unspendable and has no address.
            return program.length == 20 ? P2WPKH : program.length == 32 ? P2WSH : UNKNOWN;
        }
        if (version == 1 && program.length == 32) {
            return P2TR;
        }
        return version == 1 && Arrays.equals(program, ANCHOR_PROGRAM) ? P2A : WITNESS_UNKNOWN;
    }

    /** The address on {@code network}, or empty when the script has none (OP_RETURN, UNKNOWN). */
    Optional<String> address(BitcoinNetwork network) {
        return switch (type) {
            case P2PKH -> Optional.of(Base58Check.encode(Base58.BITCOIN, network.p2pkhVersion(), payload));
            case P2SH -> Optional.of(Base58Check.encode(Base58.BITCOIN, network.p2shVersion(), payload));
            case OP_RETURN, UNKNOWN -> Optional.empty();
            default -> Optional.of(SegwitAddress.encode(network.hrp(), witnessVersion, payload));
        };
    }

    @Override
    public byte[] payload() {
        return payload.clone();
    }
}
