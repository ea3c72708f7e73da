package dev.keyhaven.chains.bitcoin;

import fr.acinq.bitcoin.OP_CODESEPARATOR;
import fr.acinq.bitcoin.OP_PUSHDATA;
import fr.acinq.bitcoin.Script;
import fr.acinq.bitcoin.ScriptElt;
import java.util.Arrays;
import java.util.List;

/**
 * The standard output scripts, built with bitcoin-kmp's templates, and the two questions Keyhaven asks of a redeem or
 * witness script: does it push a given key, and does it hold an OP_CODESEPARATOR.
 */
final class Scripts {
    private Scripts() {}

    static byte[] p2pkh(byte[] keyHash20) {
        return Script.write(Script.pay2pkh(keyHash20));
    }

    static byte[] p2sh(byte[] redeemScript) {
        return Script.write(Script.pay2sh(redeemScript));
    }

    static byte[] p2wpkh(byte[] keyHash20) {
        return Script.write(Script.pay2wpkh(keyHash20));
    }

    /** OP_0 and the 32-byte program (a witness script's SHA-256). */
    static byte[] p2wsh(byte[] program32) {
        return witnessProgram(0x00, program32);
    }

    /**
     * OP_1 and the 32-byte output key. Written out rather than through kmp's pay2tr, which tweaks the key with the
     * native secp256k1 this module does not carry.
     */
    static byte[] p2tr(byte[] outputKey32) {
        return witnessProgram(0x51, outputKey32);
    }

    private static byte[] witnessProgram(int versionOpcode, byte[] program) {
        byte[] script = new byte[2 + program.length];
        script[0] = (byte) versionOpcode;
        script[1] = (byte) program.length;
        System.arraycopy(program, 0, script, 2, program.length);
        return script;
    }

    /** Whether a script (already parsed by kmp when the PSBT was read) pushes exactly {@code data}. */
    static boolean pushes(List<ScriptElt> script, byte[] data) {
        return script.stream()
                .anyMatch(
                        element -> element instanceof OP_PUSHDATA push && Arrays.equals(push.data.toByteArray(), data));
    }

    /**
     * Whether a script holds an OP_CODESEPARATOR, after which a signature commits to only the part of the script that
     * follows the last one executed: which that is depends on the path the spend takes, so Keyhaven does not guess.
     */
    static boolean hasCodeSeparator(List<ScriptElt> script) {
        return script.stream().anyMatch(element -> element instanceof OP_CODESEPARATOR);
    }
}
