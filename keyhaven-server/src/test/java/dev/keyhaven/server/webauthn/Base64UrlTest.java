package dev.keyhaven.server.webauthn;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class Base64UrlTest {
    private static final byte[] BYTES = {(byte) 0xfb, (byte) 0xff, 0x01, 0x02};

    @Test
    void decodesBase64UrlAndStandardBase64WithOrWithoutPadding() {
        assertThat(Base64Url.decode("-_8BAg")).isEqualTo(BYTES);
        assertThat(Base64Url.decode("-_8BAg==")).isEqualTo(BYTES);
        assertThat(Base64Url.decode("+/8BAg==")).isEqualTo(BYTES);
        assertThat(Base64Url.decode("+/8BAg")).isEqualTo(BYTES);
    }

    @Test
    void encodesBase64UrlWithoutPadding() {
        assertThat(Base64Url.encode(BYTES)).isEqualTo("-_8BAg");
    }

    @Test
    void refusesWhatIsNotBase64() {
        assertThatThrownBy(() -> Base64Url.decode("not base64!")).isInstanceOf(IllegalArgumentException.class);
    }
}
