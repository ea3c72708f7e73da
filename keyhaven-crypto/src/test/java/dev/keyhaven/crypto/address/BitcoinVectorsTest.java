package dev.keyhaven.crypto.address;

import static dev.keyhaven.crypto.address.AddressFormat.*;
import static org.assertj.core.api.Assertions.assertThat;

import dev.keyhaven.crypto.KeyCurve;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** Public key → address vectors of the Bitcoin BIPs (49, 84, 86, 173). */
class BitcoinVectorsTest {
    private static final HexFormat HEX = HexFormat.of();

    @Test
    void bip84PublicKeysGiveTheirNativeSegwitAddresses() {
        List<String[]> pairs = pairs("bip-0084-test-vectors.txt", "pubkey", "address");

        assertThat(pairs).hasSize(3);
        for (String[] pair : pairs) {
            assertThat(encode(BITCOIN_MAINNET_P2WPKH, HEX.parseHex(pair[0]))).isEqualTo(pair[1]);
        }
    }

    @Test
    void bip86InternalKeysGiveTheirOutputKeysAndTaprootAddressesWhateverTheYParity() {
        List<String[]> keys = pairs("bip-0086-test-vectors.txt", "internal_key", "output_key");
        List<String[]> addresses = pairs("bip-0086-test-vectors.txt", "internal_key", "address");

        assertThat(keys).hasSize(3);
        for (int i = 0; i < keys.size(); i++) {
            byte[] internal = HEX.parseHex(keys.get(i)[0]);
            assertThat(HEX.formatHex(Taproot.outputKey(internal))).isEqualTo(keys.get(i)[1]);
            byte[] oddY = TaprootTest.evenY(internal);
            oddY[0] = 0x03;
            for (byte[] candidate : List.of(TaprootTest.evenY(internal), oddY)) {
                assertThat(encode(BITCOIN_MAINNET_P2TR, candidate))
                        .isEqualTo(addresses.get(i)[1]);
            }
        }
    }

    @Test
    void bip49PublicKeyGivesItsNestedSegwitTestnetAddress() {
        List<String[]> pairs = pairs("bip-0049-test-vectors.txt", "account0recvPublicKeyHex", "address");

        assertThat(pairs).hasSize(1);
        byte[] key = HEX.parseHex(pairs.getFirst()[0].substring(2));
        assertThat(encode(BITCOIN_TESTNET_P2SH, key)).isEqualTo(pairs.getFirst()[1]);
        assertThat(encode(BITCOIN_SIGNET_P2SH, key)).isEqualTo(pairs.getFirst()[1]);
        assertThat(encode(BITCOIN_REGTEST_P2SH, key)).isEqualTo(pairs.getFirst()[1]);
    }

    @Test
    void bip173ExampleKeyGivesTheP2wpkhAndKeyChecksigP2wshExamples() {
        String text = Vectors.text("bip-0173-examples.txt");
        byte[] key = HEX.parseHex(tt(text, "All examples use public key").toLowerCase(Locale.ROOT));

        assertThat(encode(BITCOIN_MAINNET_P2WPKH, key)).isEqualTo(tt(text, "* Mainnet P2WPKH"));
        assertThat(encode(BITCOIN_TESTNET_P2WPKH, key)).isEqualTo(tt(text, "* Testnet P2WPKH"));
        assertThat(encode(BITCOIN_MAINNET_P2WSH, key)).isEqualTo(tt(text, "* Mainnet P2WSH"));
        assertThat(encode(BITCOIN_TESTNET_P2WSH, key)).isEqualTo(tt(text, "* Testnet P2WSH"));
        assertThat(encode(BITCOIN_SIGNET_P2WSH, key)).isEqualTo(tt(text, "* Testnet P2WSH"));
    }

    @Test
    void regtestSegwitAddressesCarryTheBcrtPrefixAndTheSameProgram() {
        byte[] key = HEX.parseHex("0330d54fd0dd420a6e5f8d3624f5f3482cae350f79d5f0753bf5beef9c2d91af3c");
        String mainnet = encode(BITCOIN_MAINNET_P2WPKH, key);
        String regtest = encode(BITCOIN_REGTEST_P2WPKH, key);

        assertThat(regtest).startsWith("bcrt1q");
        assertThat(SegwitAddress.decode("bcrt", regtest).program())
                .isEqualTo(SegwitAddress.decode("bc", mainnet).program());
        assertThat(encode(BITCOIN_REGTEST_P2TR, key)).startsWith("bcrt1p");
    }

    @Test
    void p2pkhHashesTheCompressedKeyEvenWhenGivenTheUncompressedForm() {
        // en.bitcoin.it "Technical background of version 1 Bitcoin addresses": the uncompressed key's own address
        // would be 16UwLL9Risc3QfPqBUvKofHmBQ7wMtjvM; Turnkey reports and hashes compressed keys.
        byte[] uncompressed = HEX.parseHex("0450863ad64a87ae8a2fe83c1af1a8403cb53f53e486d8511dad8a04887e5b2352"
                + "2cd470243453a299fa9e77237716103abc11a1df38855ed6f2ee187e9c582ba6");

        assertThat(encode(BITCOIN_MAINNET_P2PKH, uncompressed)).isEqualTo("1PMycacnJaSqwwJqjawXBErnLsZ7RkXUAs");
    }

    @Test
    void networkPrefixesMatchTheirFirstCharacters() {
        byte[] key = HEX.parseHex("0330d54fd0dd420a6e5f8d3624f5f3482cae350f79d5f0753bf5beef9c2d91af3c");

        assertThat(encode(BITCOIN_MAINNET_P2PKH, key)).startsWith("1");
        assertThat(encode(BITCOIN_MAINNET_P2SH, key)).startsWith("3");
        assertThat(encode(BITCOIN_TESTNET_P2PKH, key)).matches("[mn].*");
        assertThat(encode(BITCOIN_TESTNET_P2SH, key)).startsWith("2");
        assertThat(encode(BITCOIN_SIGNET_P2TR, key))
                .isEqualTo(encode(BITCOIN_TESTNET_P2TR, key))
                .startsWith("tb1p");
        assertThat(encode(DOGE_MAINNET, key)).startsWith("D");
        assertThat(encode(DOGE_TESTNET, key)).startsWith("n");
    }

    @Test
    void dogecoinAddressesAreP2pkhUnderDogecoinVersionBytes() {
        byte[] key = HEX.parseHex("0330d54fd0dd420a6e5f8d3624f5f3482cae350f79d5f0753bf5beef9c2d91af3c");
        byte[] keyHash = dev.keyhaven.crypto.Digests.hash160(key);

        assertThat(Base58Check.decode(Base58.BITCOIN, encode(DOGE_MAINNET, key)))
                .startsWith((byte) 0x1e)
                .endsWith(keyHash)
                .hasSize(21);
        assertThat(Base58Check.decode(Base58.BITCOIN, encode(DOGE_TESTNET, key)))
                .startsWith((byte) 0x71)
                .endsWith(keyHash)
                .hasSize(21);
    }

    private static String encode(AddressFormat format, byte[] key) {
        return Addresses.encode(format, KeyCurve.SECP256K1, key);
    }

    /** Each value of {@code from} paired with the next value of {@code to} in the file's {@code <pre>} block. */
    private static List<String[]> pairs(String file, String from, String to) {
        List<String[]> out = new ArrayList<>();
        String pending = null;
        for (String[] assignment : Vectors.preAssignments(file)) {
            if (assignment[0].equals(from)) {
                pending = assignment[1];
            } else if (assignment[0].equals(to) && pending != null) {
                out.add(new String[] {pending, assignment[1]});
                pending = null;
            }
        }
        return out;
    }

    private static String tt(String text, String linePrefix) {
        int at = text.indexOf(linePrefix);
        Matcher m = Pattern.compile("<tt>(.*?)</tt>").matcher(text);
        if (!m.find(at)) {
            throw new IllegalStateException("no <tt> after " + linePrefix);
        }
        return m.group(1);
    }
}
