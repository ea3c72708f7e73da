package dev.keyhaven.crypto.bundle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.keyhaven.crypto.EcCurve;
import dev.keyhaven.crypto.KeyCurve;
import dev.keyhaven.crypto.SecretBytes;
import dev.keyhaven.crypto.SecretKeyAccess;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;

/**
 * QuorumOS envelopes. The known answer was made by the pinned {@code @turnkey/crypto} 2.13.2:
 * {@code encryptOauth2ClientSecret(SECRET, RECIPIENT_PUBLIC)} (the override key), so opening it proves the byte
 * layout, key derivation and AAD against the official implementation.
 */
class QuorumEnvelopeTest {
    private static final HexFormat HEX = HexFormat.of();
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final String RECIPIENT_PRIVATE = "3f1a3b9c0d2e4f5061728394a5b6c7d8e9f00112233445566778899aabbccdd0";
    private static final String RECIPIENT_PUBLIC = "0451c807c215884af3ce8a5533a46e0ba7df2e88b776ee2240e7f9e781b0c0cbc"
            + "6919ca11cb32fa54d91589f0e2fef284d91e55927d6ab2f4f92059aec789ed7e1";
    private static final String SECRET = "kh-test-client-secret_0123456789";
    private static final String SDK_ENVELOPE = "115336ae1bf2a93570ee12f3041095cdc68045b4f93cb9e2551e205dff93a844f08d6"
            + "02cd533d0098b884c5126772e349f9310d0f1a0803a6d731fb931c75f3e0a27b5e65c3ac5b8bd86d04161300000006"
            + "4c678f8c4503106c7ef9c3cc71ea334017b823f7d802b51b43c9f9ae06f21026e99c11b603de9b10832b2148fe723c0";

    private static SecretBytes recipient() {
        return SecretBytes.copyOf(HEX.parseHex(RECIPIENT_PRIVATE));
    }

    private static String text(SecretBytes secret) {
        return secret.apply(SecretKeyAccess.get(), b -> new String(b, StandardCharsets.UTF_8));
    }

    @Test
    void opensTheEnvelopeTheOfficialSdkMade() {
        try (SecretBytes key = recipient()) {
            assertThat(HEX.formatHex(EcCurve.P256.decompress(KeyCurve.P256.publicKey(key))))
                    .isEqualTo(RECIPIENT_PUBLIC);
            try (SecretBytes opened = QuorumEnvelope.open(key, HEX.parseHex(SDK_ENVELOPE))) {
                assertThat(text(opened)).isEqualTo(SECRET);
            }
        }
    }

    @Test
    void sealedEnvelopesHaveTheSdkLayoutAndOpen() {
        try (SecretBytes key = recipient();
                SecretBytes message = SecretBytes.copyOf(SECRET.getBytes(StandardCharsets.UTF_8))) {
            byte[] sealed = QuorumEnvelope.seal(HEX.parseHex(RECIPIENT_PUBLIC), message, RANDOM);
            assertThat(sealed).hasSize(12 + 65 + 4 + SECRET.length() + 16);
            assertThat(sealed[12]).isEqualTo((byte) 0x04);
            assertThat(Arrays.copyOfRange(sealed, 77, 81)).containsExactly(SECRET.length() + 16, 0, 0, 0);
            try (SecretBytes opened = QuorumEnvelope.open(key, sealed)) {
                assertThat(text(opened)).isEqualTo(SECRET);
            }
        }
    }

    @Test
    void refusesAnotherRecipientTamperingAndMalformedLayouts() {
        byte[] envelope = HEX.parseHex(SDK_ENVELOPE);
        try (SecretBytes key = recipient();
                SecretBytes other = KeyCurve.P256.generatePrivateKey(RANDOM)) {
            assertThatThrownBy(() -> QuorumEnvelope.open(other, envelope))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("does not open");
            for (int index : new int[] {0, 20, envelope.length - 1}) {
                byte[] tampered = envelope.clone();
                tampered[index] ^= 1;
                assertThatThrownBy(() -> QuorumEnvelope.open(key, tampered))
                        .isInstanceOf(IllegalArgumentException.class);
            }
            assertThatThrownBy(() -> QuorumEnvelope.open(key, Arrays.copyOf(envelope, envelope.length - 1)))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("declares a ciphertext");
            assertThatThrownBy(() -> QuorumEnvelope.open(key, Arrays.copyOf(envelope, 90)))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("too short");
            byte[] compressedSender = envelope.clone();
            compressedSender[12] = 0x02;
            assertThatThrownBy(() -> QuorumEnvelope.open(key, compressedSender))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("sender key");
        }
    }
}
