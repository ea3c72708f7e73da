package dev.keyhaven.crypto.address;

import static dev.keyhaven.crypto.address.AddressFormat.*;

import java.util.Collections;
import java.util.EnumMap;
import java.util.Map;

/** Which encoder serves which format. Built once; every format must have exactly one. */
final class EncoderRegistry {
    private static final int DOGE_MAINNET_VERSION = 0x1e;
    private static final int DOGE_TESTNET_VERSION = 0x71;

    private EncoderRegistry() {}

    static Map<AddressFormat, AddressEncoder> all() {
        Map<AddressFormat, AddressEncoder> encoders = new EnumMap<>(AddressFormat.class);
        encoders.put(UNCOMPRESSED, new RawKeyEncoder(false));
        encoders.put(COMPRESSED, new RawKeyEncoder(true));
        encoders.put(ETHEREUM, new EthereumEncoder());
        encoders.put(SOLANA, new SolanaEncoder());
        encoders.put(COSMOS, new CosmosEncoder("cosmos"));
        encoders.put(TRON, new TronEncoder());
        encoders.put(SUI, new SuiEncoder());
        encoders.put(APTOS, new AptosEncoder());
        bitcoin(
                encoders,
                BitcoinNetwork.MAINNET,
                BITCOIN_MAINNET_P2PKH,
                BITCOIN_MAINNET_P2SH,
                BITCOIN_MAINNET_P2WPKH,
                BITCOIN_MAINNET_P2WSH,
                BITCOIN_MAINNET_P2TR);
        bitcoin(
                encoders,
                BitcoinNetwork.TESTNET,
                BITCOIN_TESTNET_P2PKH,
                BITCOIN_TESTNET_P2SH,
                BITCOIN_TESTNET_P2WPKH,
                BITCOIN_TESTNET_P2WSH,
                BITCOIN_TESTNET_P2TR);
        bitcoin(
                encoders,
                BitcoinNetwork.SIGNET,
                BITCOIN_SIGNET_P2PKH,
                BITCOIN_SIGNET_P2SH,
                BITCOIN_SIGNET_P2WPKH,
                BITCOIN_SIGNET_P2WSH,
                BITCOIN_SIGNET_P2TR);
        bitcoin(
                encoders,
                BitcoinNetwork.REGTEST,
                BITCOIN_REGTEST_P2PKH,
                BITCOIN_REGTEST_P2SH,
                BITCOIN_REGTEST_P2WPKH,
                BITCOIN_REGTEST_P2WSH,
                BITCOIN_REGTEST_P2TR);
        encoders.put(SEI, new CosmosEncoder("sei"));
        encoders.put(XLM, new StellarEncoder());
        encoders.put(DOGE_MAINNET, new P2pkhEncoder(DOGE_MAINNET_VERSION));
        encoders.put(DOGE_TESTNET, new P2pkhEncoder(DOGE_TESTNET_VERSION));
        encoders.put(TON_V3R2, new TonEncoder(TonWallet.V3R2));
        encoders.put(TON_V4R2, new TonEncoder(TonWallet.V4R2));
        encoders.put(TON_V5R1, new TonEncoder(TonWallet.V5R1));
        encoders.put(XRP, new XrpEncoder());
        encoders.put(SPARK_MAINNET, new SparkEncoder("spark"));
        encoders.put(SPARK_REGTEST, new SparkEncoder("sparkrt"));
        if (encoders.size() != AddressFormat.values().length) {
            throw new IllegalStateException("an address format has no encoder");
        }
        return Collections.unmodifiableMap(encoders);
    }

    private static void bitcoin(
            Map<AddressFormat, AddressEncoder> encoders,
            BitcoinNetwork network,
            AddressFormat p2pkh,
            AddressFormat p2sh,
            AddressFormat p2wpkh,
            AddressFormat p2wsh,
            AddressFormat p2tr) {
        encoders.put(p2pkh, new P2pkhEncoder(network.p2pkhVersion()));
        encoders.put(p2sh, new P2shEncoder(network));
        encoders.put(p2wpkh, new P2wpkhEncoder(network));
        encoders.put(p2wsh, new P2wshEncoder(network));
        encoders.put(p2tr, new P2trEncoder(network));
    }
}
