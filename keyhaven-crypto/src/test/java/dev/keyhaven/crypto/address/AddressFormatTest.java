package dev.keyhaven.crypto.address;

import static dev.keyhaven.crypto.KeyCurve.ED25519;
import static dev.keyhaven.crypto.KeyCurve.P256;
import static dev.keyhaven.crypto.KeyCurve.SECP256K1;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.keyhaven.crypto.KeyCurve;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The curve compatibility table of addresses.md §2.4, with its recommendations (SEI secp256k1, SUI Ed25519). */
class AddressFormatTest {

    @Test
    void thereAreTheThirtyEightTurnkeyFormats() {
        assertThat(AddressFormat.values()).hasSize(38);
    }

    @Test
    void compatibilityFollowsTheTableOfAddressesMd() {
        for (AddressFormat format : AddressFormat.values()) {
            assertThat(format.curves()).as(format.name()).isEqualTo(expectedCurves(format));
            for (KeyCurve curve : KeyCurve.values()) {
                assertThat(format.supports(curve))
                        .as(format + " " + curve)
                        .isEqualTo(expectedCurves(format).contains(curve));
            }
        }
    }

    @Test
    void everyBitcoinNetworkHasTheFiveScriptTypesInMainnetOrder() {
        String[] names = Arrays.stream(AddressFormat.values())
                .map(Enum::name)
                .filter(n -> n.startsWith("BITCOIN_"))
                .toArray(String[]::new);

        assertThat(names).hasSize(20);
        String[] types = {"P2PKH", "P2SH", "P2WPKH", "P2WSH", "P2TR"};
        String[] networks = {"MAINNET", "TESTNET", "SIGNET", "REGTEST"};
        for (int i = 0; i < 20; i++) {
            assertThat(names[i]).isEqualTo("BITCOIN_" + networks[i / 5] + "_" + types[i % 5]);
        }
    }

    @Test
    void wireNamesCarryTheAddressFormatPrefixAndRoundTrip() {
        assertThat(AddressFormat.ETHEREUM.wireName()).isEqualTo("ADDRESS_FORMAT_ETHEREUM");
        assertThat(AddressFormat.BITCOIN_SIGNET_P2TR.wireName()).isEqualTo("ADDRESS_FORMAT_BITCOIN_SIGNET_P2TR");
        for (AddressFormat format : AddressFormat.values()) {
            assertThat(AddressFormat.fromWire(format.wireName())).contains(format);
        }
    }

    @Test
    void unknownWireNamesAreEmpty() {
        assertThat(AddressFormat.fromWire("ETHEREUM")).isEmpty();
        assertThat(AddressFormat.fromWire("ADDRESS_FORMAT_ETHEREUM2")).isEmpty();
        assertThat(AddressFormat.fromWire("ADDRESS_FORMAT_")).isEmpty();
        assertThat(AddressFormat.fromWire(null)).isEmpty();
    }

    @Test
    void curvesCannotBeModified() {
        Set<KeyCurve> curves = AddressFormat.COMPRESSED.curves();

        assertThatThrownBy(() -> curves.remove(ED25519)).isInstanceOf(UnsupportedOperationException.class);
    }

    /** addresses.md §2.4, written out independently of the enum. */
    private static Set<KeyCurve> expectedCurves(AddressFormat format) {
        String name = format.name();
        if (name.equals("COMPRESSED")) {
            return EnumSet.of(SECP256K1, P256, ED25519);
        }
        if (name.equals("UNCOMPRESSED")) {
            return EnumSet.of(SECP256K1, P256);
        }
        if (Set.of("SOLANA", "SUI", "APTOS", "XLM").contains(name) || name.startsWith("TON_")) {
            return EnumSet.of(ED25519);
        }
        if (Set.of("ETHEREUM", "TRON", "COSMOS", "XRP", "SEI").contains(name)
                || name.startsWith("DOGE_")
                || name.startsWith("BITCOIN_")
                || name.startsWith("SPARK_")) {
            return EnumSet.of(SECP256K1);
        }
        throw new AssertionError("format missing from the table: " + name);
    }
}
