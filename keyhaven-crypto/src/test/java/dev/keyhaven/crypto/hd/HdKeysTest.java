package dev.keyhaven.crypto.hd;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.keyhaven.crypto.Digests;
import dev.keyhaven.crypto.EcCurve;
import dev.keyhaven.crypto.KeyCurve;
import dev.keyhaven.crypto.SecretBytes;
import dev.keyhaven.crypto.SecretKeyAccess;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

class HdKeysTest {
    private static final String ABANDON_ABOUT = "abandon ".repeat(11) + "about";

    private static SecretBytes abandonAboutSeed() {
        try (SecretBytes phrase = SecretBytes.copyOf(ABANDON_ABOUT.getBytes(StandardCharsets.UTF_8));
                Mnemonic mnemonic = Mnemonic.parse(phrase)) {
            return mnemonic.toSeed();
        }
    }

    private static SecretBytes derive(KeyCurve curve, SecretBytes seed, String path) {
        return HdKeys.derivePrivateKey(curve, seed, DerivationPath.parse(path));
    }

    @Test
    void ed25519TreatsNonHardenedIndicesAsHardened() {
        try (SecretBytes seed = abandonAboutSeed();
                SecretBytes docsPath = derive(KeyCurve.ED25519, seed, "m/44'/501'/0'/0");
                SecretBytes walletPath = derive(KeyCurve.ED25519, seed, "m/44'/501'/0'/0'");
                SecretBytes allPlain = derive(KeyCurve.ED25519, seed, "m/44/501/0/0");
                SecretBytes otherIndex = derive(KeyCurve.ED25519, seed, "m/44'/501'/0'/1'")) {
            assertThat(docsPath.sameAs(walletPath)).isTrue();
            assertThat(allPlain.sameAs(walletPath)).isTrue();
            assertThat(otherIndex.sameAs(walletPath)).isFalse();
        }
    }

    @Test
    void ed25519SolanaAccountOfAbandonAboutIsThePhantomAddress() {
        // The address wallets such as Phantom and solana-keygen print for this mnemonic (addresses.md §3.3).
        byte[] expected = Base58Check.decodePlain("HAgk14JpMQLgt6rVgv7cBQFJWFto5Dqxi472uT3DKpqk");
        try (SecretBytes seed = abandonAboutSeed();
                SecretBytes key = derive(KeyCurve.ED25519, seed, "m/44'/501'/0'/0'")) {
            assertThat(KeyCurve.ED25519.publicKey(key)).isEqualTo(expected);
        }
    }

    @Test
    void secp256k1EthereumAccountOfAbandonAboutIsTheWidelyPublishedAddress() {
        try (SecretBytes seed = abandonAboutSeed();
                SecretBytes key = derive(KeyCurve.SECP256K1, seed, "m/44'/60'/0'/0/0")) {
            byte[] uncompressed = EcCurve.SECP256K1.decompress(KeyCurve.SECP256K1.publicKey(key));
            byte[] hash = Digests.keccak256(Arrays.copyOfRange(uncompressed, 1, 65));

            assertThat(Vectors.toHex(Arrays.copyOfRange(hash, 12, 32)))
                    .isEqualTo("9858EfFD232B4033E47d90003D41EC34EcaEda94".toLowerCase(Locale.ROOT));
        }
    }

    @ParameterizedTest
    @EnumSource(
            value = KeyCurve.class,
            names = {"SECP256K1", "P256"})
    void ecdsaCurvesDistinguishHardenedFromNonHardenedIndices(KeyCurve curve) {
        try (SecretBytes seed = abandonAboutSeed();
                SecretBytes plain = derive(curve, seed, "m/44'/60'/0'/0/0");
                SecretBytes hardened = derive(curve, seed, "m/44'/60'/0'/0/0'")) {
            assertThat(plain.sameAs(hardened)).isFalse();
        }
    }

    @ParameterizedTest
    @EnumSource(KeyCurve.class)
    void eachCurveGivesItsOwn32ByteKeyAndLeavesTheSeedUsable(KeyCurve curve) {
        try (SecretBytes seed = abandonAboutSeed();
                SecretBytes first = derive(curve, seed, "m/44'/0'/0'");
                SecretBytes again = derive(curve, seed, "m/44'/0'/0'")) {
            assertThat(first.length()).isEqualTo(32);
            assertThat(first.sameAs(again)).isTrue();
            assertThat(curve.publicKey(first)).isNotEmpty();
        }
    }

    @Test
    void theSameSeedAndPathGiveDifferentKeysOnDifferentCurves() {
        try (SecretBytes seed = abandonAboutSeed();
                SecretBytes k1 = derive(KeyCurve.SECP256K1, seed, "m/0'");
                SecretBytes p256 = derive(KeyCurve.P256, seed, "m/0'");
                SecretBytes ed = derive(KeyCurve.ED25519, seed, "m/0'")) {
            assertThat(k1.sameAs(p256)).isFalse();
            assertThat(k1.sameAs(ed)).isFalse();
            assertThat(p256.sameAs(ed)).isFalse();
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 15, 65, 128})
    void rejectsSeedsOutsideTheBip32Range(int length) {
        try (SecretBytes seed = SecretBytes.copyOf(new byte[length])) {
            assertThatThrownBy(() -> derive(KeyCurve.SECP256K1, seed, "m/0"))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("seed must be 16 to 64 bytes, not " + length);
        }
    }

    @Test
    void closingTheDerivedKeyWipesIt() {
        SecretBytes key;
        try (SecretBytes seed = abandonAboutSeed()) {
            key = derive(KeyCurve.SECP256K1, seed, "m/44'/60'/0'/0/0");
        }
        key.close();

        assertThatThrownBy(() -> key.apply(SecretKeyAccess.get(), b -> b)).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void closingTheExtendedKeyZeroesKeyAndChainCode() {
        try (SecretBytes seed = abandonAboutSeed()) {
            ExtendedKey key = HdKeys.deriveExtended(KeyCurve.P256, seed, DerivationPath.parse("m/1/2'"));
            byte[] keyBytes = key.key();
            byte[] chainCode = key.chainCode();
            key.close();

            assertThat(keyBytes).containsOnly(0);
            assertThat(chainCode).containsOnly(0);
        }
    }

    @Test
    void refusesAWipedSeed() {
        SecretBytes seed = abandonAboutSeed();
        seed.close();

        assertThatThrownBy(() -> derive(KeyCurve.ED25519, seed, "m/0'")).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void ed25519IndexPolicyHardensEveryIndex() {
        assertThat(Ed25519IndexPolicy.effectiveIndex(0)).isEqualTo(DerivationPath.HARDENED);
        assertThat(Ed25519IndexPolicy.effectiveIndex(5 | DerivationPath.HARDENED))
                .isEqualTo(5 | DerivationPath.HARDENED);
        assertThat(Ed25519IndexPolicy.effectiveIndex(0x7fffffff)).isEqualTo(0xffffffff);
    }
}
