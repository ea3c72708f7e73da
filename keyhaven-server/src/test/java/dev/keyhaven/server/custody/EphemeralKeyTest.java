package dev.keyhaven.server.custody;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.keyhaven.crypto.EcCurve;
import dev.keyhaven.crypto.VerifyingKey;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;

/** The app-proof key: Turnkey's 130-byte public key layout, low-S raw signatures by its second half, wiped on close. */
class EphemeralKeyTest {

    @Test
    void signsWithTheSecondHalfOfItsPublicKey() {
        try (EphemeralKey key = EphemeralKey.generate(new SecureRandom())) {
            byte[] publicKey = HexFormat.of().parseHex(key.publicKeyHex());
            assertThat(publicKey).hasSize(130);
            assertThat(publicKey[0]).isEqualTo((byte) 4);
            assertThat(publicKey[65]).isEqualTo((byte) 4);
            assertThat(Arrays.copyOfRange(publicKey, 0, 65)).isNotEqualTo(Arrays.copyOfRange(publicKey, 65, 130));

            byte[] message = "{\"type\":\"APP_PROOF_TYPE_POLICY_OUTCOME\"}".getBytes(StandardCharsets.UTF_8);
            byte[] signature = key.sign(message);
            assertThat(signature).hasSize(64);
            BigInteger s = new BigInteger(1, Arrays.copyOfRange(signature, 32, 64));
            assertThat(s).isLessThanOrEqualTo(EcCurve.P256.order().shiftRight(1));
            VerifyingKey signing = VerifyingKey.ecdsaSha256(EcCurve.P256, Arrays.copyOfRange(publicKey, 65, 130));
            assertThat(signing.verify(message, VerifyingKey.derFromRaw(EcCurve.P256, signature)))
                    .isTrue();
            VerifyingKey encryption = VerifyingKey.ecdsaSha256(EcCurve.P256, Arrays.copyOfRange(publicKey, 0, 65));
            assertThat(encryption.verify(message, VerifyingKey.derFromRaw(EcCurve.P256, signature)))
                    .isFalse();
            assertThat(key.toString()).isEqualTo("EphemeralKey[" + key.publicKeyHex() + "]");
        }
    }

    @Test
    void aClosedKeySignsNoMore() {
        EphemeralKey key = EphemeralKey.generate(new SecureRandom());
        key.close();
        assertThatThrownBy(() -> key.sign(new byte[] {1})).isInstanceOf(IllegalStateException.class);
    }
}
