package dev.keyhaven.crypto.address;

import dev.keyhaven.crypto.Digests;
import dev.keyhaven.crypto.KeyCurve;

/** Native segwit version 0, 32-byte program SHA-256(witness script), Bech32, for a one-key witness script. */
final class P2wshEncoder implements AddressEncoder {
    /**
     * The witness script. Turnkey does not document it; addresses.md §3.9 and §6 question 2 recommend
     * {@code <K> OP_CHECKSIG} ({@code wsh(pk(K))}), the script of BIP-173's P2WSH examples. The alternatives are
     * {@link SingleKeyScript#MULTISIG_1_OF_1} (plausible given the BIP-48 default path) and {@link SingleKeyScript#PKH}.
     */
    static final SingleKeyScript WITNESS_SCRIPT = SingleKeyScript.PK;

    private final BitcoinNetwork network;

    P2wshEncoder(BitcoinNetwork network) {
        this.network = network;
    }

    @Override
    public String encode(KeyCurve curve, byte[] publicKey) {
        byte[] witnessScript = WITNESS_SCRIPT.script(PublicKeys.compressed(curve, publicKey));
        return SegwitAddress.encode(network.hrp(), 0, Digests.sha256(witnessScript));
    }
}
