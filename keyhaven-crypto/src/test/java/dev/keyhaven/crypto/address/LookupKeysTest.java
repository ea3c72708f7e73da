package dev.keyhaven.crypto.address;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;

class LookupKeysTest {
    private static final String TON_EQ = "EQDnBF4JTFKHTYjulEJyNd4dstLGH1m51UrLdu01_tw4z2Au";

    @Test
    void ethereumAddressInAnyCaseMapsToOneLowercaseKey() {
        String checksummed = "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed";
        String key = Addresses.lookupKey(checksummed);

        assertThat(key).isEqualTo("0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed");
        assertThat(Addresses.lookupKey(checksummed.toLowerCase(Locale.ROOT))).isEqualTo(key);
        assertThat(Addresses.lookupKey("0x" + checksummed.substring(2).toUpperCase(Locale.ROOT)))
                .isEqualTo(key);
        assertThat(Addresses.lookupKey("0X" + checksummed.substring(2))).isEqualTo(key);
    }

    @Test
    void suiAndAptosHexAddressesAreLowercased() {
        String aptos = "0x07968DAB936c1bad187c60ce4082f307d030d780e91e694ae03aef16aba73f30";

        assertThat(Addresses.lookupKey(aptos)).isEqualTo(aptos.toLowerCase(Locale.ROOT));
    }

    @Test
    void everyTonFormOfAnAccountMapsToItsBounceableUrlSafeMainnetForm() {
        TonAddress.Raw raw = TonAddress.parse(TON_EQ).orElseThrow();
        String hex = HexFormat.of().formatHex(raw.hash());
        List<String> forms = List.of(
                TON_EQ,
                "0:" + hex,
                "0:" + hex.toUpperCase(Locale.ROOT),
                TonAddress.friendly(0, raw.hash(), new TonAddress.Form(false, false, true)),
                TonAddress.friendly(0, raw.hash(), new TonAddress.Form(true, true, true)),
                TonAddress.friendly(0, raw.hash(), new TonAddress.Form(false, true, false)),
                TonAddress.friendly(0, raw.hash(), new TonAddress.Form(true, false, false)));

        assertThat(forms.get(3)).startsWith("UQ");
        assertThat(forms.get(4)).startsWith("kQ");
        assertThat(forms.get(6)).contains("/").isNotEqualTo(TON_EQ);
        assertThat(forms)
                .allSatisfy(form -> assertThat(Addresses.lookupKey(form)).isEqualTo(TON_EQ));
    }

    @Test
    void publishedNonBounceableTonAddressMapsToTheBounceableForm() {
        assertThat(Addresses.lookupKey("UQBiUbwjoB56b7CYtoiPnY5vPh2Fwjva6jEPBhqnttjQKpce"))
                .isEqualTo("EQBiUbwjoB56b7CYtoiPnY5vPh2Fwjva6jEPBhqnttjQKsrb");
    }

    @Test
    void masterchainRawAddressKeepsItsWorkchain() {
        String raw = "-1:" + "3".repeat(64);

        String key = Addresses.lookupKey(raw);

        assertThat(key).startsWith("Ef");
        assertThat(TonAddress.parse(key).orElseThrow().workchain()).isEqualTo(-1);
    }

    @Test
    void tonStringWithABrokenChecksumIsLeftUnchanged() {
        byte[] body = Base64.getUrlDecoder().decode(TON_EQ);
        body[35] ^= 1;
        String broken = Base64.getUrlEncoder().encodeToString(body);

        assertThat(Addresses.lookupKey(broken)).isEqualTo(broken);
    }

    @Test
    void caseSensitiveEncodingsPassThroughUnchanged() {
        assertThat(List.of(
                        "bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu",
                        "BC1QW508D6QEJXTDG4Y5R3ZARVARY0C5XW7KV8F3T4",
                        "HAgk14JpMQLgt6rVgv7cBQFJWFto5Dqxi472uT3DKpqk",
                        "GB3JDWCQJCWMJ3IILWIGDTQJJC5567PGVEVXSCVPEQOTDN64VJBDQBYX",
                        "rHsMGQEkVNJmpGWs8XUBoTBiAAbwxZN5v3",
                        "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAe",
                        "not an address"))
                .allSatisfy(address -> assertThat(Addresses.lookupKey(address)).isEqualTo(address));
    }
}
