package dev.keyhaven.crypto.address;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.keyhaven.crypto.EcCurve;
import dev.keyhaven.crypto.KeyCurve;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The facade over every format × curve pair: the compatibility check, key validation and the encoder registry. */
class AddressesTest {
    private static final HexFormat HEX = HexFormat.of();
    private static final byte[] SECP256K1_KEY =
            HEX.parseHex("0330d54fd0dd420a6e5f8d3624f5f3482cae350f79d5f0753bf5beef9c2d91af3c");
    private static final byte[] P256_KEY =
            HEX.parseHex("02216cd26d31147f72427a453c443ed2cde8a1e53c9cc44e5ddf739725413fe3f4");
    private static final byte[] ED25519_KEY =
            HEX.parseHex("3c24da049451555d51a7014a37337aa4e12d41e485abccfa46b47dfb2af54b7a");

    static Stream<Arguments> everyPair() {
        return Arrays.stream(AddressFormat.values())
                .flatMap(format -> Arrays.stream(KeyCurve.values()).map(curve -> Arguments.of(format, curve)));
    }

    static Stream<Arguments> supportedPairs() {
        return everyPair().filter(a -> ((AddressFormat) a.get()[0]).supports((KeyCurve) a.get()[1]));
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("everyPair")
    void supportedPairEncodesAndAnyOtherPairFailsNamingFormatAndCurve(AddressFormat format, KeyCurve curve) {
        if (format.supports(curve)) {
            assertThat(Addresses.encode(format, curve, validKey(curve))).isNotBlank();
            return;
        }
        assertThatThrownBy(() -> Addresses.encode(format, curve, validKey(curve)))
                .isInstanceOfSatisfying(IncompatibleCurveException.class, e -> {
                    assertThat(e.format()).isEqualTo(format);
                    assertThat(e.curve()).isEqualTo(curve);
                })
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("address format ADDRESS_FORMAT_" + format.name() + " does not support curve CURVE_"
                        + curve.name());
    }

    @Test
    void ethereumWithAnEd25519KeyNamesBothInTheMessage() {
        assertThatThrownBy(() -> Addresses.encode(AddressFormat.ETHEREUM, KeyCurve.ED25519, ED25519_KEY))
                .hasMessage("address format ADDRESS_FORMAT_ETHEREUM does not support curve CURVE_ED25519");
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("supportedPairs")
    void malformedKeysAreRejected(AddressFormat format, KeyCurve curve) {
        for (byte[] key : malformedKeys(curve)) {
            assertThatThrownBy(() -> Addresses.encode(format, curve, key))
                    .as("%s %s %s", format, curve, HEX.formatHex(key))
                    .isInstanceOf(IllegalArgumentException.class)
                    .isNotInstanceOf(IncompatibleCurveException.class);
        }
        assertThatThrownBy(() -> Addresses.encode(format, curve, null)).isInstanceOf(NullPointerException.class);
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("supportedPairs")
    void compressedAndUncompressedEcdsaKeysGiveTheSameAddress(AddressFormat format, KeyCurve curve) {
        if (!curve.isEcdsa()) {
            return;
        }
        byte[] compressed = validKey(curve);
        byte[] uncompressed = curve.ecCurve().orElseThrow().decompress(compressed);

        assertThat(Addresses.encode(format, curve, uncompressed))
                .isEqualTo(Addresses.encode(format, curve, compressed));
    }

    @Test
    void offCurveKeysFromTrezorsTronTestAreRejected() {
        // trezor-firmware core/tests/test_apps.tron.address.py hashes these without checking that they are points.
        for (String hex : List.of(
                "041cc8ed55001c441a9ca7b42129f025f33ff30ea29dfe88fc9f8ad8826582c73b52d47c475c75da0cc9f64a6462ca57e70a8902a79cccc4e769cc0261c691ce4f",
                "04d3df47d402249892f56295cf08cb70c2e37fc6b9eea01e1b163f4b5608f96c8449b3ea69541a33ff7961bb69af6f98bfca558fe53b9429de3fb8054d29f9c917")) {
            assertThatThrownBy(() -> Addresses.encode(AddressFormat.TRON, KeyCurve.SECP256K1, HEX.parseHex(hex)))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("not a valid point");
        }
    }

    @Test
    void nullArgumentsAreRejected() {
        assertThatThrownBy(() -> Addresses.encode(null, KeyCurve.SECP256K1, SECP256K1_KEY))
                .isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> Addresses.encode(AddressFormat.ETHEREUM, null, SECP256K1_KEY))
                .isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> Addresses.lookupKey(null)).isInstanceOf(NullPointerException.class);
    }

    @Test
    void theRegistryHasAnEncoderForEveryFormat() {
        assertThat(EncoderRegistry.all().keySet()).containsExactly(AddressFormat.values());
    }

    @Test
    void encodingDoesNotModifyTheCallersKey() {
        byte[] key = ED25519_KEY.clone();

        Addresses.encode(AddressFormat.TON_V5R1, KeyCurve.ED25519, key);

        assertThat(key).isEqualTo(ED25519_KEY);
    }

    @Test
    void rawKeyFormatsPrintLowercaseHex() {
        byte[] upper = SECP256K1_KEY.clone();

        assertThat(Addresses.encode(AddressFormat.COMPRESSED, KeyCurve.SECP256K1, upper))
                .isEqualTo("0330d54fd0dd420a6e5f8d3624f5f3482cae350f79d5f0753bf5beef9c2d91af3c");
        assertThat(Addresses.encode(AddressFormat.UNCOMPRESSED, KeyCurve.SECP256K1, upper))
                .hasSize(130)
                .startsWith("0430d54fd0dd420a6e5f8d3624f5f3482cae350f79d5f0753bf5beef9c2d91af3c")
                .isLowerCase();
    }

    private static byte[] validKey(KeyCurve curve) {
        return switch (curve) {
            case SECP256K1 -> SECP256K1_KEY.clone();
            case P256 -> P256_KEY.clone();
            case ED25519 -> ED25519_KEY.clone();
        };
    }

    private static List<byte[]> malformedKeys(KeyCurve curve) {
        List<byte[]> keys = new ArrayList<>();
        for (int length : new int[] {0, 1, 31, 32, 33, 34, 64, 65, 66}) {
            boolean rightLength = curve.isEcdsa() ? length == 33 || length == 65 : length == 32;
            if (!rightLength) {
                keys.add(Arrays.copyOf(validKey(curve), length));
            }
        }
        if (curve.isEcdsa()) {
            EcCurve ec = curve.ecCurve().orElseThrow();
            byte[] badPrefix = validKey(curve);
            badPrefix[0] = 0x05;
            keys.add(badPrefix);
            byte[] offCurve = ec.decompress(validKey(curve));
            offCurve[64] ^= 1;
            keys.add(offCurve);
            byte[] xTooLarge = new byte[33];
            Arrays.fill(xTooLarge, (byte) 0xff);
            xTooLarge[0] = 0x02;
            keys.add(xTooLarge);
            keys.add(new byte[33]);
            keys.add(new byte[65]);
        } else {
            byte[] identity = new byte[32];
            identity[0] = 1; // y = 1: the neutral element, of small order
            keys.add(identity);
            byte[] nonCanonical = new byte[32];
            Arrays.fill(nonCanonical, (byte) 0xff);
            nonCanonical[31] = 0x7f; // y = 2^255 - 1, not reduced modulo p
            keys.add(nonCanonical);
        }
        return keys;
    }
}
