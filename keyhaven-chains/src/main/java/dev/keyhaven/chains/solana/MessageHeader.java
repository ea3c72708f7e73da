package dev.keyhaven.chains.solana;

/**
 * The three counts that open a Solana message and give each static account key its role: the first
 * {@code requiredSignatures} keys sign (the last {@code readonlySigned} of them read-only), and of the keys after them
 * the last {@code readonlyUnsigned} are read-only.
 */
record MessageHeader(int requiredSignatures, int readonlySigned, int readonlyUnsigned) {

    boolean signer(int staticIndex) {
        return staticIndex < requiredSignatures;
    }

    boolean writable(int staticIndex, int staticKeyCount) {
        return signer(staticIndex)
                ? staticIndex < requiredSignatures - readonlySigned
                : staticIndex < staticKeyCount - readonlyUnsigned;
    }
}
