package dev.keyhaven.crypto.address;

import static org.assertj.core.api.Assertions.assertThat;

import dev.keyhaven.crypto.KeyCurve;
import java.util.Arrays;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.bouncycastle.util.encoders.Base32;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * SEP-0005 lists each derived account as its public {@code G…} id and secret {@code S…} seed. The Ed25519 key of
 * either must encode back to the {@code G…} string.
 */
class StellarSep0005Test {
    private static final Pattern ACCOUNT = Pattern.compile("^(m/44'/148'/\\d+') (G[A-Z2-7]{55}) (S[A-Z2-7]{55})$");
    private static final int ACCOUNT_ID = 6 << 3;
    private static final int SEED = 18 << 3;

    static Stream<Arguments> accounts() {
        return Vectors.lines("sep-0005-test-cases.md").stream()
                .map(ACCOUNT::matcher)
                .filter(Matcher::matches)
                .map(m -> Arguments.of(m.group(1), m.group(2), m.group(3)));
    }

    @ParameterizedTest
    @MethodSource("accounts")
    void keyOfTheSecretSeedAndKeyOfTheAccountIdBothEncodeToTheAccountId(String path, String accountId, String seed) {
        byte[] fromSeed = Vectors.ed25519FromSeed(strKeyPayload(seed, SEED));
        byte[] fromId = strKeyPayload(accountId, ACCOUNT_ID);

        assertThat(fromSeed).as(path).isEqualTo(fromId);
        assertThat(Addresses.encode(AddressFormat.XLM, KeyCurve.ED25519, fromSeed))
                .as(path)
                .isEqualTo(accountId);
    }

    @Test
    void allFiftyAccountsOfTheFiveTestsAreRead() {
        assertThat(accounts()).hasSize(50);
    }

    /** Decodes a StrKey, checking its version byte and little-endian CRC16-XMODEM. */
    private static byte[] strKeyPayload(String strKey, int version) {
        byte[] data = Base32.decode(strKey);
        assertThat(data).hasSize(35);
        assertThat(data[0] & 0xff).isEqualTo(version);
        int crc = (data[33] & 0xff) | ((data[34] & 0xff) << 8);
        assertThat(crc).isEqualTo(Crc16Xmodem.compute(data, 0, 33));
        return Arrays.copyOfRange(data, 1, 33);
    }

    @Test
    void crc16XmodemOfTheCheckStringIsItsCatalogueValue() {
        // The CRC catalogue's check value for CRC-16/XMODEM over "123456789".
        assertThat(Crc16Xmodem.compute("123456789".getBytes(java.nio.charset.StandardCharsets.US_ASCII)))
                .isEqualTo(0x31c3);
    }
}
