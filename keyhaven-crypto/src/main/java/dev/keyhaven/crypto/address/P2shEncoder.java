package dev.keyhaven.crypto.address;

import dev.keyhaven.crypto.Digests;
import dev.keyhaven.crypto.KeyCurve;

/** Pay-to-script-hash of a one-key redeem script: Base58Check(P2SH version ‖ RIPEMD-160(SHA-256(redeem script))). */
final class P2shEncoder implements AddressEncoder {
    /**
     * The redeem script. Turnkey does not document it; addresses.md §3.9 and §6 question 1 recommend P2SH-P2WPKH
     * ({@code sh(wpkh(K))}, BIP-49): the docs' default path is BIP-49's and it is the only one-key P2SH that standard
     * wallets derive. The alternatives are {@link SingleKeyScript#PK}, {@link SingleKeyScript#PKH} and
     * {@link SingleKeyScript#MULTISIG_1_OF_1}.
     */
    static final SingleKeyScript REDEEM_SCRIPT = SingleKeyScript.WPKH;

    private final BitcoinNetwork network;

    P2shEncoder(BitcoinNetwork network) {
        this.network = network;
    }

    @Override
    public String encode(KeyCurve curve, byte[] publicKey) {
        byte[] redeemScript = REDEEM_SCRIPT.script(PublicKeys.compressed(curve, publicKey));
        return Base58Check.encode(Base58.BITCOIN, network.p2shVersion(), Digests.hash160(redeemScript));
    }
}
