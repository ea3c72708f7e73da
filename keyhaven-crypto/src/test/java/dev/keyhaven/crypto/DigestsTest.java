package dev.keyhaven.crypto;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;

class DigestsTest {
    private static final HexFormat HEX = HexFormat.of();

    @Test
    void keccak256OfEmptyInputIsTheEthereumConstant() {
        assertThat(HEX.formatHex(Digests.keccak256(new byte[0])))
                .isEqualTo("c5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470");
    }

    @Test
    void sha256OfAbcIsTheFipsVector() {
        assertThat(HEX.formatHex(Digests.sha256(ascii("abc"))))
                .isEqualTo("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    }

    @Test
    void sha256dOfHelloIsTheBitcoinWikiExample() {
        // en.bitcoin.it/wiki/Protocol_documentation, "Hashes": sha256(sha256("hello")).
        assertThat(HEX.formatHex(Digests.sha256d(ascii("hello"))))
                .isEqualTo("9595c9df90075148eb06860365df33584b75bff782a510c6cd4883a419833d50");
    }

    @Test
    void sha3_256OfAbcIsTheFips202VectorAndDiffersFromKeccak() {
        byte[] abc = ascii("abc");
        assertThat(HEX.formatHex(Digests.sha3_256(abc)))
                .isEqualTo("3a985da74fe225b2045c172d6bd390bd855f086e3e9d525b46bfe24511431532");
        assertThat(Digests.sha3_256(abc)).isNotEqualTo(Digests.keccak256(abc));
    }

    @Test
    void hash160OfTheBip49KeyIsItsKeyHash() {
        // bip-0049.mediawiki test vector: keyhash = HASH160(account0recvPublicKeyHex).
        byte[] publicKey = HEX.parseHex("03a1af804ac108a8a51782198c2d034b28bf90c8803f5a53f76276fa69a4eae77f");
        assertThat(HEX.formatHex(Digests.hash160(publicKey))).isEqualTo("38971f73930f6c141d977ac4fd4a727c854935b3");
    }

    @Test
    void hash160OfTheBip49RedeemScriptIsItsAddressBytes() {
        byte[] redeemScript = HEX.parseHex("001438971f73930f6c141d977ac4fd4a727c854935b3");
        assertThat(HEX.formatHex(Digests.hash160(redeemScript))).isEqualTo("336caa13e08b96080a32b5d818d59b4ab3b36742");
    }

    @Test
    void blake2b256IsTheThirtyTwoByteParameterisationNotATruncatedBlake2b512() {
        assertThat(HEX.formatHex(Digests.blake2b256(new byte[0])))
                .isEqualTo("0e5751c026e543b2e8ab2eb06099daa1d1e5df47778f7787faab45cdf12fe3a8");
        assertThat(HEX.formatHex(Digests.blake2b256(ascii("abc"))))
                .isEqualTo("bddd813c634239723171ef3fee98579b94964e3bb1cb3e427262c8c068d52319");
        // RFC 7693 Appendix A: the first 32 bytes of BLAKE2b-512("abc") are a different value.
        assertThat(HEX.formatHex(Digests.blake2b256(ascii("abc"))))
                .isNotEqualTo("ba80a53f981c4d0d6a2797b69f12f6e94c212f14685ac4b74b12bb6fdbffa2d1");
    }

    @Test
    void taggedHashTapTweakMatchesTheBip341WalletVector() {
        // bip-0341/wallet-test-vectors.json, scriptPubKey[0]: no script tree, so tweak = TaggedHash("TapTweak", P).
        byte[] internalKey = HEX.parseHex("d6889cb081036e0faefa3a35157ad71086b123b2b144b649798b494c300a961d");
        assertThat(HEX.formatHex(Digests.taggedHash("TapTweak", internalKey)))
                .isEqualTo("b86e7be8f39bab32a6f2c0443abbc210f0edac0e2c53d501b36b64437d9c6c70");
    }

    @Test
    void taggedHashIsSha256OverTwoTagHashesAndTheMessage() {
        byte[] tag = Digests.sha256(ascii("BIP0340/challenge"));
        byte[] message = ascii("m");
        byte[] concatenated = new byte[64 + message.length];
        System.arraycopy(tag, 0, concatenated, 0, 32);
        System.arraycopy(tag, 0, concatenated, 32, 32);
        System.arraycopy(message, 0, concatenated, 64, message.length);
        assertThat(Digests.taggedHash("BIP0340/challenge", message)).isEqualTo(Digests.sha256(concatenated));
    }

    private static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }
}
