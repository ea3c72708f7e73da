package dev.keyhaven.crypto.hd;

import static org.assertj.core.api.Assertions.assertThat;

import dev.keyhaven.crypto.KeyCurve;
import dev.keyhaven.crypto.SecretBytes;
import dev.keyhaven.crypto.SecretKeyAccess;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** BIP-32 test vectors 1–4 from {@code bip-0032.mediawiki}: every chain's xprv and xpub. */
class Bip32VectorsTest {
    record Chain(String vector, String seed, String path, String xpub, String xprv) {
        @Override
        public String toString() {
            return vector + " " + path;
        }
    }

    static List<Chain> chains() {
        List<Chain> chains = new ArrayList<>();
        String vector = null;
        String seed = null;
        String path = null;
        String xpub = null;
        for (String line : Vectors.text("bip-0032.mediawiki").lines().toList()) {
            if (line.startsWith("===Test vector ")) {
                vector = line.replace("=", "").strip();
            } else if (line.startsWith("Seed (hex): ")) {
                seed = line.substring("Seed (hex): ".length()).strip();
            } else if (line.startsWith("* Chain ")) {
                path = Vectors.pathOf(line.substring("* Chain ".length()).strip());
            } else if (line.startsWith("** ext pub: ")) {
                xpub = line.substring("** ext pub: ".length()).strip();
            } else if (line.startsWith("** ext prv: ")) {
                chains.add(new Chain(
                        vector,
                        seed,
                        path,
                        xpub,
                        line.substring("** ext prv: ".length()).strip()));
            }
        }
        return chains;
    }

    @Test
    void readsTheSeventeenChainsOfVectorsOneToFour() {
        assertThat(chains()).hasSize(17);
        assertThat(chains())
                .extracting(Chain::vector)
                .containsOnly("Test vector 1", "Test vector 2", "Test vector 3", "Test vector 4");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("chains")
    void derivesTheKeyChainCodeAndPublicKeyOfEveryChain(Chain chain) {
        DerivationPath path = DerivationPath.parse(chain.path());
        byte[] xprv = Base58Check.decode(chain.xprv());
        byte[] xpub = Base58Check.decode(chain.xpub());
        try (SecretBytes seed = SecretBytes.copyOf(Vectors.hex(chain.seed()));
                ExtendedKey key = HdKeys.deriveExtended(KeyCurve.SECP256K1, seed, path);
                SecretBytes privateKey = HdKeys.derivePrivateKey(KeyCurve.SECP256K1, seed, path)) {
            // xprv = version(4) depth(1) fingerprint(4) child number(4) chain code(32) 0x00 key(32)
            assertThat(xprv[4] & 0xff).isEqualTo(path.indices().size());
            assertThat(ByteBuffer.wrap(xprv, 9, 4).getInt())
                    .isEqualTo(path.indices().isEmpty() ? 0 : path.indices().getLast());
            assertThat(key.chainCode()).isEqualTo(Arrays.copyOfRange(xprv, 13, 45));
            assertThat(key.key()).isEqualTo(Arrays.copyOfRange(xprv, 46, 78));
            assertThat(privateKey.apply(SecretKeyAccess.get(), byte[]::clone))
                    .isEqualTo(Arrays.copyOfRange(xprv, 46, 78));
            assertThat(KeyCurve.SECP256K1.publicKey(privateKey)).isEqualTo(Arrays.copyOfRange(xpub, 45, 78));
        }
    }
}
