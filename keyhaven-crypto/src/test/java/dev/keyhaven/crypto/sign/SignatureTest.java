package dev.keyhaven.crypto.sign;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

class SignatureTest {
    private static byte[] filled(int value) {
        byte[] b = new byte[32];
        Arrays.fill(b, (byte) value);
        return b;
    }

    @Test
    void rendersRAndSAsSixtyFourLowercaseHexDigitsWithoutPrefix() {
        Signature sig = new Signature(filled(0xAB), filled(0x0c), 1);
        assertThat(sig.rHex()).isEqualTo("ab".repeat(32));
        assertThat(sig.sHex()).isEqualTo("0c".repeat(32));
    }

    @Test
    void rendersVAsTwoHexDigits() {
        assertThat(new Signature(filled(1), filled(1), 0).vHex()).isEqualTo("00");
        assertThat(new Signature(filled(1), filled(1), 1).vHex()).isEqualTo("01");
    }

    @Test
    void cannotBeChangedThroughTheArraysItWasBuiltWithOrHandsOut() {
        byte[] r = filled(1);
        Signature sig = new Signature(r, filled(2), 0);
        r[0] = 9;
        sig.r()[1] = 9;
        sig.s()[1] = 9;
        assertThat(sig.r()).isEqualTo(filled(1));
        assertThat(sig.s()).isEqualTo(filled(2));
    }

    @Test
    void equalsComparesContents() {
        assertThat(new Signature(filled(1), filled(2), 1))
                .isEqualTo(new Signature(filled(1), filled(2), 1))
                .hasSameHashCodeAs(new Signature(filled(1), filled(2), 1))
                .isNotEqualTo(new Signature(filled(1), filled(2), 0));
    }

    @Test
    void rejectsComponentsThatAreNot32Bytes() {
        assertThatThrownBy(() -> new Signature(new byte[31], filled(1), 0))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new Signature(filled(1), new byte[33], 0))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void rejectsARecoveryIdOutsideZeroToThree() {
        assertThatThrownBy(() -> new Signature(filled(1), filled(1), 4)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new Signature(filled(1), filled(1), -1)).isInstanceOf(IllegalArgumentException.class);
    }
}
