package dev.keyhaven.crypto.address;

import static dev.keyhaven.crypto.KeyCurve.ED25519;
import static dev.keyhaven.crypto.KeyCurve.P256;
import static dev.keyhaven.crypto.KeyCurve.SECP256K1;

import dev.keyhaven.crypto.KeyCurve;
import java.util.Collections;
import java.util.EnumSet;
import java.util.Optional;
import java.util.Set;

/**
 * Turnkey's {@code v1AddressFormat}: the 38 ways a wallet account's public key becomes an address, each with the curves
 * it accepts (addresses.md §2.4). The wire name is {@code ADDRESS_FORMAT_} followed by the constant's name.
 */
public enum AddressFormat {
    UNCOMPRESSED(SECP256K1, P256),
    COMPRESSED(SECP256K1, P256, ED25519),
    ETHEREUM(SECP256K1),
    SOLANA(ED25519),
    COSMOS(SECP256K1),
    TRON(SECP256K1),
    /** Ed25519 only, as Turnkey's docs and Sui example use it; the encoder also knows Sui's secp256k1/P-256 flags. */
    SUI(ED25519),
    APTOS(ED25519),
    BITCOIN_MAINNET_P2PKH(SECP256K1),
    BITCOIN_MAINNET_P2SH(SECP256K1),
    BITCOIN_MAINNET_P2WPKH(SECP256K1),
    BITCOIN_MAINNET_P2WSH(SECP256K1),
    BITCOIN_MAINNET_P2TR(SECP256K1),
    BITCOIN_TESTNET_P2PKH(SECP256K1),
    BITCOIN_TESTNET_P2SH(SECP256K1),
    BITCOIN_TESTNET_P2WPKH(SECP256K1),
    BITCOIN_TESTNET_P2WSH(SECP256K1),
    BITCOIN_TESTNET_P2TR(SECP256K1),
    BITCOIN_SIGNET_P2PKH(SECP256K1),
    BITCOIN_SIGNET_P2SH(SECP256K1),
    BITCOIN_SIGNET_P2WPKH(SECP256K1),
    BITCOIN_SIGNET_P2WSH(SECP256K1),
    BITCOIN_SIGNET_P2TR(SECP256K1),
    BITCOIN_REGTEST_P2PKH(SECP256K1),
    BITCOIN_REGTEST_P2SH(SECP256K1),
    BITCOIN_REGTEST_P2WPKH(SECP256K1),
    BITCOIN_REGTEST_P2WSH(SECP256K1),
    BITCOIN_REGTEST_P2TR(SECP256K1),
    /**
     * secp256k1 only: Turnkey's SDK default and Sei network page use it, while nothing says how an Ed25519 Sei address
     * would be formed (addresses.md §3.6, §6 question 5).
     */
    SEI(SECP256K1),
    XLM(ED25519),
    DOGE_MAINNET(SECP256K1),
    DOGE_TESTNET(SECP256K1),
    TON_V3R2(ED25519),
    TON_V4R2(ED25519),
    TON_V5R1(ED25519),
    XRP(SECP256K1),
    SPARK_MAINNET(SECP256K1),
    SPARK_REGTEST(SECP256K1);

    private static final String WIRE_PREFIX = "ADDRESS_FORMAT_";

    private final Set<KeyCurve> curves;

    AddressFormat(KeyCurve first, KeyCurve... rest) {
        this.curves = Collections.unmodifiableSet(EnumSet.of(first, rest));
    }

    /** Whether a key on {@code curve} can have an address in this format. */
    public boolean supports(KeyCurve curve) {
        return curves.contains(curve);
    }

    /** The curves this format accepts, in {@link KeyCurve} order. */
    public Set<KeyCurve> curves() {
        return curves;
    }

    /** {@code ADDRESS_FORMAT_ETHEREUM} and so on. */
    public String wireName() {
        return WIRE_PREFIX + name();
    }

    /** The format whose wire name is {@code wireName}, if any. */
    public static Optional<AddressFormat> fromWire(String wireName) {
        if (wireName == null || !wireName.startsWith(WIRE_PREFIX)) {
            return Optional.empty();
        }
        String name = wireName.substring(WIRE_PREFIX.length());
        for (AddressFormat format : values()) {
            if (format.name().equals(name)) {
                return Optional.of(format);
            }
        }
        return Optional.empty();
    }
}
