package dev.keyhaven.server.webauthn;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import org.junit.jupiter.api.Test;

class StampChallengeTest {

    @Test
    void isTheAsciiOfTheLowercaseHexSha256OfTheBody() {
        assertThat(new String(StampChallenge.of("hello".getBytes(StandardCharsets.UTF_8)), StandardCharsets.US_ASCII))
                .isEqualTo("2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824");
    }

    /** The vector of tkhq/sdk packages/react-native-passkey-stamper/src/__tests__/util-test.ts. */
    @Test
    void matchesTheTurnkeySdkVector() {
        byte[] challenge = StampChallenge.of("hello".getBytes(StandardCharsets.UTF_8));

        assertThat(Base64.getEncoder().encodeToString(challenge))
                .isEqualTo("MmNmMjRkYmE1ZmIwYTMwZTI2ZTgzYjJhYzViOWUyOWUxYjE2MWU1YzFmYTc0MjVlNzMwNDMzNjI5MzhiOTgyNA==");
        assertThat(Base64Url.decode(
                        "MmNmMjRkYmE1ZmIwYTMwZTI2ZTgzYjJhYzViOWUyOWUxYjE2MWU1YzFmYTc0MjVlNzMwNDMzNjI5" + "MzhiOTgyNA"))
                .isEqualTo(challenge);
    }

    @Test
    void coversTheExactBytesOfTheBody() {
        assertThat(StampChallenge.of("{\"a\":1}".getBytes(StandardCharsets.UTF_8)))
                .isNotEqualTo(StampChallenge.of("{\"a\": 1}".getBytes(StandardCharsets.UTF_8)));
    }
}
