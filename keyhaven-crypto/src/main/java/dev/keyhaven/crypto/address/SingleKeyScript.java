package dev.keyhaven.crypto.address;

import dev.keyhaven.crypto.Digests;

/**
 * The one-key scripts a P2SH redeem script or a P2WSH witness script can be. Turnkey does not document which ones it
 * uses (addresses.md §6, questions 1 and 2), so the encoders each pick one through a single constant and the
 * alternatives stay here, ready for a one-line switch once a real Turnkey organisation settles the question.
 */
enum SingleKeyScript {
    /** {@code OP_0 <hash160(K)>}: a version-0 witness program, i.e. P2SH-P2WPKH ({@code sh(wpkh(K))}, BIP-49). */
    WPKH,
    /** {@code <K> OP_CHECKSIG} ({@code pk(K)}). */
    PK,
    /** {@code OP_DUP OP_HASH160 <hash160(K)> OP_EQUALVERIFY OP_CHECKSIG} ({@code pkh(K)}). */
    PKH,
    /** {@code OP_1 <K> OP_1 OP_CHECKMULTISIG} ({@code multi(1,K)}). */
    MULTISIG_1_OF_1;

    /** The script for a 33-byte compressed key. */
    byte[] script(byte[] compressedKey) {
        return switch (this) {
            case WPKH -> concat(new byte[] {0x00, 0x14}, Digests.hash160(compressedKey));
            case PK -> concat(new byte[] {0x21}, compressedKey, new byte[] {(byte) 0xac});
            case PKH ->
                concat(new byte[] {0x76, (byte) 0xa9, 0x14}, Digests.hash160(compressedKey), new byte[] {
                    (byte) 0x88, (byte) 0xac
                });
            case MULTISIG_1_OF_1 -> concat(new byte[] {0x51, 0x21}, compressedKey, new byte[] {0x51, (byte) 0xae});
        };
    }

    private static byte[] concat(byte[]... parts) {
        int length = 0;
        for (byte[] part : parts) {
            length += part.length;
        }
        byte[] out = new byte[length];
        int offset = 0;
        for (byte[] part : parts) {
            System.arraycopy(part, 0, out, offset, part.length);
            offset += part.length;
        }
        return out;
    }
}
