package dev.keyhaven.crypto.bundle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.keyhaven.crypto.EcCurve;
import dev.keyhaven.crypto.KeyCurve;
import dev.keyhaven.crypto.SecretBytes;
import dev.keyhaven.crypto.SecretKeyAccess;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;

/**
 * Turnkey's HPKE profile. Compatibility with {@code @turnkey/crypto} itself is proven by the interop suite, which
 * opens these bundles with the official package; here: round trips, both target encodings, and refusals.
 */
class TurnkeyHpkeTest {
    private static final SecureRandom RANDOM = new SecureRandom();

    private static byte[] bytes(SecretBytes secret) {
        return secret.apply(SecretKeyAccess.get(), byte[]::clone);
    }

    @Test
    void sealedToACompressedOrUncompressedKeyOpensWithThePrivateKey() {
        try (SecretBytes recipient = KeyCurve.P256.generatePrivateKey(RANDOM);
                SecretBytes message = SecretBytes.copyOf("abandon about".getBytes(StandardCharsets.UTF_8))) {
            byte[] compressed = KeyCurve.P256.publicKey(recipient);
            for (byte[] target : new byte[][] {compressed, EcCurve.P256.decompress(compressed)}) {
                TurnkeyHpke.Encrypted sealed = TurnkeyHpke.seal(target, message);
                assertThat(sealed.encappedPublic()).hasSize(65).startsWith(0x04);
                assertThat(sealed.ciphertext()).hasSize(13 + 16);
                try (SecretBytes opened = TurnkeyHpke.open(recipient, sealed)) {
                    assertThat(bytes(opened)).isEqualTo(bytes(message));
                }
            }
        }
    }

    @Test
    void aCredentialBundleIsBase58CheckOfTheCompressedKeyAndCiphertext() {
        try (SecretBytes recipient = KeyCurve.P256.generatePrivateKey(RANDOM);
                SecretBytes key = KeyCurve.P256.generatePrivateKey(RANDOM)) {
            TurnkeyHpke.Encrypted sealed = TurnkeyHpke.seal(KeyCurve.P256.publicKey(recipient), key);
            String bundle = sealed.credentialBundle();
            assertThat(bundle).matches("[1-9A-HJ-NP-Za-km-z]+");
            TurnkeyHpke.Encrypted read = TurnkeyHpke.Encrypted.ofCredentialBundle(bundle);
            assertThat(read.encappedPublic()).isEqualTo(sealed.encappedPublic());
            try (SecretBytes opened = TurnkeyHpke.open(recipient, read)) {
                assertThat(bytes(opened)).isEqualTo(bytes(key));
            }
            char last = bundle.charAt(bundle.length() - 1);
            String corrupted = bundle.substring(0, bundle.length() - 1) + (last == '2' ? '3' : '2');
            assertThatThrownBy(() -> TurnkeyHpke.Encrypted.ofCredentialBundle(corrupted))
                    .isInstanceOf(IllegalArgumentException.class);
        }
    }

    @Test
    void anotherKeyOrATamperedCiphertextDoesNotOpen() {
        try (SecretBytes recipient = KeyCurve.P256.generatePrivateKey(RANDOM);
                SecretBytes other = KeyCurve.P256.generatePrivateKey(RANDOM);
                SecretBytes message = SecretBytes.copyOf(new byte[32])) {
            TurnkeyHpke.Encrypted sealed = TurnkeyHpke.seal(KeyCurve.P256.publicKey(recipient), message);
            assertThatThrownBy(() -> TurnkeyHpke.open(other, sealed))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageNotContaining(HexFormat.of().formatHex(sealed.ciphertext()));
            byte[] tampered = sealed.ciphertext();
            tampered[0] ^= 1;
            assertThatThrownBy(() ->
                            TurnkeyHpke.open(recipient, new TurnkeyHpke.Encrypted(sealed.encappedPublic(), tampered)))
                    .isInstanceOf(IllegalArgumentException.class);
        }
    }

    @Test
    void aTargetThatIsNoP256PointIsRefused() {
        try (SecretBytes message = SecretBytes.copyOf(new byte[1])) {
            assertThatThrownBy(() -> TurnkeyHpke.seal(new byte[33], message))
                    .isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> TurnkeyHpke.seal(HexFormat.of().parseHex("04abcd"), message))
                    .isInstanceOf(IllegalArgumentException.class);
        }
    }
}
