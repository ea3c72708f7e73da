package dev.keyhaven.server.activity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class FingerprintTest {
    /** SHA-256("abc"), FIPS 180-2 appendix B.1. */
    private static final String SHA256_ABC = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";

    private static final byte[] ABC = "abc".getBytes(StandardCharsets.US_ASCII);

    @Test
    void theRequestTimeInTwelveHexDigitsThenTheSha256OfTheBody() {
        assertThat(Fingerprint.of(ABC, Instant.ofEpochMilli(1_764_220_800_123L)))
                .isEqualTo("019ac3c10c7b" + SHA256_ABC)
                .hasSize(Fingerprint.LENGTH);
        assertThat(Fingerprint.unprefixed(ABC)).isEqualTo(SHA256_ABC);
    }

    @Test
    void fingerprintsSortByTimeAcrossADigitBoundary() {
        String earlier = Fingerprint.of("b".getBytes(StandardCharsets.US_ASCII), Instant.ofEpochMilli(0xfff));
        String later = Fingerprint.of(ABC, Instant.ofEpochMilli(0x1000));
        assertThat(earlier).startsWith("000000000fff");
        assertThat(later).startsWith("000000001000");
        assertThat(later).isGreaterThan(earlier);
    }

    @Test
    void timesThatTwelveHexDigitsCannotHoldAreRefused() {
        assertThatThrownBy(() -> Fingerprint.of(ABC, Instant.ofEpochMilli(-1)))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Fingerprint.of(ABC, Instant.ofEpochMilli(1L << 48)))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(Fingerprint.of(ABC, Instant.ofEpochMilli((1L << 48) - 1))).startsWith("ffffffffffff");
    }
}
