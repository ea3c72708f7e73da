package dev.keyhaven.crypto;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;

class DigestsTest {
    @Test
    void keccak256OfEmptyInputIsTheEthereumConstant() {
        assertThat(HexFormat.of().formatHex(Digests.keccak256(new byte[0])))
                .isEqualTo("c5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470");
    }

    @Test
    void sha256OfAbcIsTheFipsVector() {
        assertThat(HexFormat.of().formatHex(Digests.sha256("abc".getBytes(StandardCharsets.US_ASCII))))
                .isEqualTo("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    }
}
