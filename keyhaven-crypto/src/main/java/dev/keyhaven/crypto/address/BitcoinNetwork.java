package dev.keyhaven.crypto.address;

/**
 * Address parameters of the four Bitcoin networks (addresses.md §3.9). Testnet and signet share every prefix, so their
 * addresses are byte-identical; regtest differs only in the Bech32 prefix.
 */
public enum BitcoinNetwork {
    MAINNET(0x00, 0x05, "bc"),
    TESTNET(0x6f, 0xc4, "tb"),
    SIGNET(0x6f, 0xc4, "tb"),
    REGTEST(0x6f, 0xc4, "bcrt");

    private final int p2pkhVersion;
    private final int p2shVersion;
    private final String hrp;

    BitcoinNetwork(int p2pkhVersion, int p2shVersion, String hrp) {
        this.p2pkhVersion = p2pkhVersion;
        this.p2shVersion = p2shVersion;
        this.hrp = hrp;
    }

    public int p2pkhVersion() {
        return p2pkhVersion;
    }

    public int p2shVersion() {
        return p2shVersion;
    }

    public String hrp() {
        return hrp;
    }
}
