package dev.keyhaven.crypto.hd;

import static org.assertj.core.api.Assertions.assertThat;

import dev.keyhaven.crypto.KeyCurve;
import dev.keyhaven.crypto.SecretBytes;
import dev.keyhaven.crypto.SecretKeyAccess;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every secp256k1, nist256p1 and ed25519 vector of {@code slip-0010.md}, including the two nist256p1 retry vectors
 * (an invalid child I_L at {@code m/28578'/33941}, an invalid master I_L for seed {@code a7305bc8…}).
 */
class Slip10VectorsTest {
    private static final Map<String, KeyCurve> CURVES =
            Map.of("secp256k1", KeyCurve.SECP256K1, "nist256p1", KeyCurve.P256, "ed25519", KeyCurve.ED25519);

    record Chain(
            String section,
            KeyCurve curve,
            String seed,
            String path,
            String chainCode,
            String privateKey,
            String publicKey) {
        @Override
        public String toString() {
            return section + " " + path;
        }
    }

    static List<Chain> chains() {
        List<Chain> chains = new ArrayList<>();
        String section = null;
        KeyCurve curve = null;
        String seed = null;
        String path = null;
        String chainCode = null;
        String privateKey = null;
        for (String line :
                Vectors.text("slip-0010.md").lines().map(String::strip).toList()) {
            if (line.startsWith("### Test ")) {
                section = line.substring("### ".length());
                curve = CURVES.get(section.substring(section.lastIndexOf(' ') + 1));
            } else if (line.startsWith("Seed (hex): ")) {
                seed = line.substring("Seed (hex): ".length());
            } else if (line.startsWith("* Chain ")) {
                path = Vectors.pathOf(line.substring("* Chain ".length()));
            } else if (line.startsWith("* chain code: ")) {
                chainCode = line.substring("* chain code: ".length());
            } else if (line.startsWith("* private: ")) {
                privateKey = line.substring("* private: ".length());
            } else if (line.startsWith("* public: ") && curve != null) {
                chains.add(new Chain(
                        section, curve, seed, path, chainCode, privateKey, line.substring("* public: ".length())));
            }
        }
        return chains;
    }

    @Test
    void readsEveryVectorOfTheThreeCurvesKeyhavenUses() {
        List<Chain> chains = chains();

        assertThat(chains).filteredOn(c -> c.curve() == KeyCurve.SECP256K1).hasSize(12);
        assertThat(chains).filteredOn(c -> c.curve() == KeyCurve.P256).hasSize(16);
        assertThat(chains).filteredOn(c -> c.curve() == KeyCurve.ED25519).hasSize(12);
        assertThat(chains)
                .extracting(Chain::section)
                .contains("Test derivation retry for nist256p1", "Test seed retry for nist256p1");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("chains")
    void derivesTheKeyChainCodeAndPublicKeyOfEveryChain(Chain chain) {
        DerivationPath path = DerivationPath.parse(chain.path());
        try (SecretBytes seed = SecretBytes.copyOf(Vectors.hex(chain.seed()));
                ExtendedKey key = HdKeys.deriveExtended(chain.curve(), seed, path);
                SecretBytes privateKey = HdKeys.derivePrivateKey(chain.curve(), seed, path)) {
            assertThat(Vectors.toHex(key.chainCode())).isEqualTo(chain.chainCode());
            assertThat(privateKey.apply(SecretKeyAccess.get(), Vectors::toHex)).isEqualTo(chain.privateKey());
            // SLIP-0010 prints ed25519 public keys with a 00 prefix that is not part of the RFC 8032 key.
            String expectedPublic =
                    chain.curve() == KeyCurve.ED25519 ? chain.publicKey().substring(2) : chain.publicKey();
            assertThat(Vectors.toHex(chain.curve().publicKey(privateKey))).isEqualTo(expectedPublic);
        }
    }
}
