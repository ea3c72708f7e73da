package dev.keyhaven.server.custody;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.keyhaven.crypto.SecretBytes;
import dev.keyhaven.crypto.SecretKeyAccess;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** AES-256-GCM sealing under per-organization data keys, bound to purpose, organization and resource. */
class KeySealerTest {
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final byte[] KEY = HexFormat.of().parseHex("0123456789abcdef".repeat(4));

    @TempDir
    Path directory;

    private KeySealer sealer(String name) {
        return InMemoryKeys.sealer(MasterKey.generate(directory.resolve(name), RANDOM));
    }

    private static byte[] opened(KeySealer sealer, SealPurpose purpose, String org, String id, SealedSecret sealed) {
        try (SecretBytes secret = sealer.open(purpose, org, id, sealed)) {
            return secret.apply(SecretKeyAccess.get(), byte[]::clone);
        }
    }

    @Test
    void aSealedSecretOpensForItsOwnResource() {
        KeySealer sealer = sealer("kek");
        SealedSecret sealed =
                sealer.seal(InMemoryKeys.TX, SealPurpose.PRIVATE_KEY, "org", "key-1", SecretBytes.copyOf(KEY));
        assertThat(opened(sealer, SealPurpose.PRIVATE_KEY, "org", "key-1", sealed))
                .isEqualTo(KEY);
        assertThat(Base64.getDecoder().decode(sealed.base64())).hasSize(1 + 12 + KEY.length + 16);
        assertThat(sealed.toString()).doesNotContain(sealed.base64());
    }

    @Test
    void sealingTheSameSecretTwiceGivesDifferentCiphertexts() {
        KeySealer sealer = sealer("kek");
        assertThat(sealer.seal(InMemoryKeys.TX, SealPurpose.PRIVATE_KEY, "org", "k", SecretBytes.copyOf(KEY)))
                .isNotEqualTo(
                        sealer.seal(InMemoryKeys.TX, SealPurpose.PRIVATE_KEY, "org", "k", SecretBytes.copyOf(KEY)));
    }

    @Test
    void aSealedSecretDoesNotOpenForAnotherResourceOrganizationOrPurpose() {
        KeySealer sealer = sealer("kek");
        SealedSecret sealed =
                sealer.seal(InMemoryKeys.TX, SealPurpose.WALLET_ACCOUNT_KEY, "org", "acct", SecretBytes.copyOf(KEY));
        assertThatThrownBy(() -> sealer.open(SealPurpose.WALLET_ACCOUNT_KEY, "org", "other", sealed))
                .isInstanceOf(CustodyException.class)
                .hasMessageContaining("does not open");
        assertThatThrownBy(() -> sealer.open(SealPurpose.WALLET_ACCOUNT_KEY, "other-org", "acct", sealed))
                .isInstanceOf(CustodyException.class);
        assertThatThrownBy(() -> sealer.open(SealPurpose.PRIVATE_KEY, "org", "acct", sealed))
                .isInstanceOf(CustodyException.class);
        // Length prefixes keep ("ab", "c") and ("a", "bc") apart.
        SealedSecret split = sealer.seal(InMemoryKeys.TX, SealPurpose.PRIVATE_KEY, "ab", "c", SecretBytes.copyOf(KEY));
        assertThatThrownBy(() -> sealer.open(SealPurpose.PRIVATE_KEY, "a", "bc", split))
                .isInstanceOf(CustodyException.class);
    }

    @Test
    void anotherKekOrATamperedCiphertextDoesNotOpen() {
        KeySealer sealer = sealer("kek");
        SealedSecret sealed =
                sealer.seal(InMemoryKeys.TX, SealPurpose.PRIVATE_KEY, "org", "k", SecretBytes.copyOf(KEY));
        assertThatThrownBy(() -> sealer("other").open(SealPurpose.PRIVATE_KEY, "org", "k", sealed))
                .isInstanceOf(CustodyException.class);
        byte[] bytes = Base64.getDecoder().decode(sealed.base64());
        bytes[20] ^= 1;
        SealedSecret tampered = new SealedSecret(Base64.getEncoder().encodeToString(bytes));
        assertThatThrownBy(() -> sealer.open(SealPurpose.PRIVATE_KEY, "org", "k", tampered))
                .isInstanceOf(CustodyException.class);
        assertThatThrownBy(() -> sealer.open(SealPurpose.PRIVATE_KEY, "org", "k", new SealedSecret("AAAA")))
                .isInstanceOf(CustodyException.class)
                .hasMessageContaining("malformed");
    }

    @Test
    void theKekFileIsNeverOverwrittenAndReloadsToTheSameKey() throws Exception {
        Path file = directory.resolve("kek");
        InMemoryKeys.Rows rows = new InMemoryKeys.Rows();
        KeySealer first = InMemoryKeys.sealer(MasterKey.generate(file, RANDOM), rows);
        assertThatThrownBy(() -> MasterKey.generate(file, RANDOM)).isInstanceOf(java.io.UncheckedIOException.class);
        SealedSecret sealed = first.seal(InMemoryKeys.TX, SealPurpose.PRIVATE_KEY, "org", "k", SecretBytes.copyOf(KEY));
        assertThat(opened(InMemoryKeys.sealer(MasterKey.load(file), rows), SealPurpose.PRIVATE_KEY, "org", "k", sealed))
                .isEqualTo(KEY);
        assertThat(MasterKey.load(file).toString())
                .doesNotContain(Files.readString(file).strip());
    }
}
