package dev.keyhaven.crypto.address;

import static org.assertj.core.api.Assertions.assertThat;

import dev.keyhaven.crypto.KeyCurve;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** pubkey-vectors.csv: keys published with their addresses by chain SDKs, wallets and books (README.md). */
class PubkeyVectorsTest {

    static Stream<Map<String, String>> vectors() {
        return Vectors.csv("pubkey-vectors.csv").stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("vectors")
    void publishedKeyEncodesToThePublishedAddress(Map<String, String> row) {
        AddressFormat format = AddressFormat.valueOf(row.get("format"));
        KeyCurve curve = KeyCurve.valueOf(row.get("curve"));
        String expected = row.get("expected");

        String address = Addresses.encode(format, curve, Vectors.publicKey(curve, row.get("key")));

        switch (row.get("match")) {
            case "exact" -> assertThat(address).isEqualTo(expected);
            case "lookupKey" -> assertThat(address).isNotEqualTo(expected).isEqualTo(Addresses.lookupKey(expected));
            default -> throw new IllegalStateException("unknown match " + row.get("match"));
        }
    }

    @Test
    void everyFormatFamilyWithoutBipOrSepVectorsIsCovered() {
        assertThat(vectors().map(row -> row.get("format")))
                .contains(
                        "ETHEREUM",
                        "TRON",
                        "COSMOS",
                        "XRP",
                        "SUI",
                        "APTOS",
                        "TON_V3R2",
                        "TON_V4R2",
                        "TON_V5R1",
                        "COMPRESSED",
                        "UNCOMPRESSED",
                        "BITCOIN_MAINNET_P2PKH");
    }
}
