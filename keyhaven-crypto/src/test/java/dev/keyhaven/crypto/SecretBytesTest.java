package dev.keyhaven.crypto;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class SecretBytesTest {
    @Test
    void closeWipesTheBytesAndForbidsFurtherUse() {
        byte[] raw = {1, 2, 3};
        SecretBytes secret = SecretBytes.adopt(raw);
        secret.close();
        assertThat(raw).containsOnly(0);
        assertThatThrownBy(() -> secret.apply(SecretKeyAccess.get(), b -> b.length))
                .isInstanceOf(IllegalStateException.class);
    }

    @Test
    void toStringIsRedactedAndComparisonIsByContent() {
        try (SecretBytes a = SecretBytes.copyOf(new byte[] {7, 7});
                SecretBytes b = SecretBytes.copyOf(new byte[] {7, 7});
                SecretBytes c = SecretBytes.copyOf(new byte[] {7, 8})) {
            assertThat(a.toString()).isEqualTo("SecretBytes[redacted]");
            assertThat(a.sameAs(b)).isTrue();
            assertThat(a.sameAs(c)).isFalse();
        }
    }

    @Test
    void readingTakesTheAccessTokenAndEqualityNeverLooksAtTheBytes() {
        try (SecretBytes a = SecretBytes.copyOf(new byte[] {7, 7});
                SecretBytes b = SecretBytes.copyOf(new byte[] {7, 7})) {
            assertThatThrownBy(() -> a.apply(null, byte[]::clone))
                    .isInstanceOf(NullPointerException.class)
                    .hasMessage("reading key material takes SecretKeyAccess");
            assertThat(a.apply(SecretKeyAccess.get(), byte[]::clone)).containsExactly(7, 7);
            assertThat(a).isNotEqualTo(b).hasSameHashCodeAs(a);
            assertThat(a.hashCode()).isEqualTo(System.identityHashCode(a));
        }
    }
}
