package dev.keyhaven.crypto.address;

import java.util.HexFormat;

/**
 * The standard TON wallet contracts whose address Turnkey derives from an Ed25519 key. An address is the hash of the
 * contract's initial state, code plus data, so each version contributes its code cell's published hash and depth and
 * the layout of its initial data cell (addresses.md §3.14).
 */
enum TonWallet {
    V3R2("84dafa449f98a6987789ba232358072bc0f76dc4524002a5d0918b9a75d2d599", 0, 698983191),
    V4R2("feb5ff6820e2ff0d9483e7e0d62c817d846789fb4ae580c878866d959dabd5c0", 7, 698983191),
    V5R1("20834b7b72b112147e1b2fb457b84e74d1a30f04f737d4f62a668e9552d2b72f", 6, v5r1WalletId(-239, 0, 0));

    /** Every Turnkey TON account lives in the basechain. */
    static final int WORKCHAIN = 0;

    private final TonCell code;
    private final int defaultWalletId;

    TonWallet(String codeHash, int codeDepth, int defaultWalletId) {
        this.code = TonCell.ofHash(HexFormat.of().parseHex(codeHash), codeDepth);
        this.defaultWalletId = defaultWalletId;
    }

    /** The account id (StateInit hash) with the version's default wallet id. */
    byte[] accountId(byte[] publicKey) {
        return accountId(defaultWalletId, publicKey);
    }

    /** StateInit = {split_depth: none, special: none, code, data, library: none}. */
    byte[] accountId(int walletId, byte[] publicKey) {
        TonCell stateInit = TonCell.builder()
                .bit(false)
                .bit(false)
                .bit(true)
                .bit(true)
                .bit(false)
                .ref(code)
                .ref(data(walletId, publicKey))
                .build();
        return stateInit.hash();
    }

    private TonCell data(int walletId, byte[] publicKey) {
        TonCell.Builder data = TonCell.builder();
        if (this == V5R1) {
            data.bit(true); // is_signature_allowed
        }
        data.uint(0, 32).uint(walletId, 32).bytes(publicKey); // seqno = 0, wallet id, key
        if (this != V3R2) {
            data.bit(false); // empty plugin (V4) or extension (V5) dictionary
        }
        return data.build();
    }

    /**
     * The V5R1 wallet id for a client context: the 32 bits {@code 1 ‖ workchain:int8 ‖ version:uint8 = 0 (v5r1) ‖
     * subwallet:uint15}, XORed with the network's global id (-239 on mainnet, -3 on testnet).
     */
    static int v5r1WalletId(int networkGlobalId, int workchain, int subwallet) {
        int context = (1 << 31) | ((workchain & 0xff) << 23) | (subwallet & 0x7fff);
        return context ^ networkGlobalId;
    }
}
