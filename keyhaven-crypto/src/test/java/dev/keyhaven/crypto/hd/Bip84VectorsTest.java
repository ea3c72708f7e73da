package dev.keyhaven.crypto.hd;

import static org.assertj.core.api.Assertions.assertThat;

import dev.keyhaven.crypto.KeyCurve;
import dev.keyhaven.crypto.SecretBytes;
import dev.keyhaven.crypto.SecretKeyAccess;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The test vectors of {@code bip-0084.mediawiki}: from the mnemonic {@code abandon ×11 about} with no passphrase,
 * as a Keyhaven wallet holds it, through {@link Mnemonic#toSeed()} and {@link HdKeys}, to the published WIF private
 * key and public key of three accounts.
 */
class Bip84VectorsTest {
    record Account(String mnemonic, String path, String wif, String publicKey) {
        @Override
        public String toString() {
            return path;
        }
    }

    static List<Account> accounts() {
        List<Account> accounts = new ArrayList<>();
        String mnemonic = null;
        String path = null;
        String wif = null;
        for (String line :
                Vectors.text("bip-0084.mediawiki").lines().map(String::strip).toList()) {
            if (line.startsWith("mnemonic = ")) {
                mnemonic = line.substring("mnemonic = ".length());
            } else if (line.startsWith("// Account 0, ") && line.contains(" = m/")) {
                path = line.substring(line.indexOf("m/"));
            } else if (line.startsWith("privkey = ")) {
                wif = line.substring("privkey = ".length());
            } else if (line.startsWith("pubkey  = ")) {
                accounts.add(new Account(mnemonic, path, wif, line.substring("pubkey  = ".length())));
            }
        }
        return accounts;
    }

    @Test
    void readsTheThreeAccountsOfTheVectors() {
        assertThat(accounts())
                .extracting(Account::path)
                .containsExactly("m/84'/0'/0'/0/0", "m/84'/0'/0'/0/1", "m/84'/0'/0'/1/0");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("accounts")
    void derivesThePublishedKeysFromTheMnemonic(Account account) {
        // WIF = 0x80 ‖ key(32) ‖ 0x01 (compressed public key)
        byte[] wif = Base58Check.decode(account.wif());
        try (SecretBytes phrase = SecretBytes.copyOf(account.mnemonic().getBytes(StandardCharsets.UTF_8));
                Mnemonic mnemonic = Mnemonic.parse(phrase);
                SecretBytes seed = mnemonic.toSeed();
                SecretBytes key =
                        HdKeys.derivePrivateKey(KeyCurve.SECP256K1, seed, DerivationPath.parse(account.path()))) {
            assertThat(key.apply(SecretKeyAccess.get(), byte[]::clone)).isEqualTo(Arrays.copyOfRange(wif, 1, 33));
            assertThat(Vectors.toHex(KeyCurve.SECP256K1.publicKey(key))).isEqualTo(account.publicKey());
        }
    }
}
