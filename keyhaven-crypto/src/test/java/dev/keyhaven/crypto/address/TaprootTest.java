package dev.keyhaven.crypto.address;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.keyhaven.crypto.Digests;
import dev.keyhaven.crypto.KeyCurve;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** BIP-341 wallet vectors for key-path-only outputs (the BIP-86 case Turnkey's P2TR uses). */
class TaprootTest {
    private static final HexFormat HEX = HexFormat.of();

    @SuppressWarnings("unchecked")
    static Stream<Map<String, Object>> keyPathOnlyVectors() {
        Map<String, Object> file =
                (Map<String, Object>) MiniJson.parse(Vectors.text("bip-0341-wallet-test-vectors.json"));
        return ((List<Map<String, Object>>) file.get("scriptPubKey"))
                .stream().filter(v -> ((Map<String, Object>) v.get("given")).get("scriptTree") == null);
    }

    @ParameterizedTest
    @MethodSource("keyPathOnlyVectors")
    @SuppressWarnings("unchecked")
    void internalKeyGivesTheTweakTweakedKeyAndAddressOfTheVector(Map<String, Object> vector) {
        byte[] internalKey = HEX.parseHex((String) ((Map<String, Object>) vector.get("given")).get("internalPubkey"));
        Map<String, Object> intermediary = (Map<String, Object>) vector.get("intermediary");
        Map<String, Object> expected = (Map<String, Object>) vector.get("expected");

        assertThat(HEX.formatHex(Digests.taggedHash("TapTweak", internalKey))).isEqualTo(intermediary.get("tweak"));
        assertThat(HEX.formatHex(Taproot.outputKey(internalKey))).isEqualTo(intermediary.get("tweakedPubkey"));
        assertThat(Addresses.encode(AddressFormat.BITCOIN_MAINNET_P2TR, KeyCurve.SECP256K1, evenY(internalKey)))
                .isEqualTo(expected.get("bip350Address"));
        assertThat("5120" + HEX.formatHex(Taproot.outputKey(internalKey))).isEqualTo(expected.get("scriptPubKey"));
    }

    @Test
    void theWalletVectorFileHasExactlyOneKeyPathOnlyCase() {
        assertThat(keyPathOnlyVectors()).hasSize(1);
    }

    @Test
    void outputKeyRejectsAnXCoordinateThatIsNotOnTheCurve() {
        // x = 5: 5^3 + 7 = 132 is not a square modulo the secp256k1 field prime.
        byte[] x = new byte[32];
        x[31] = 5;
        assertThatThrownBy(() -> Taproot.outputKey(x)).isInstanceOf(IllegalArgumentException.class);
    }

    static byte[] evenY(byte[] xOnly) {
        byte[] key = new byte[33];
        key[0] = 0x02;
        System.arraycopy(xOnly, 0, key, 1, 32);
        return key;
    }
}
