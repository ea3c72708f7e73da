package dev.keyhaven.crypto.sign;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.keyhaven.crypto.EcCurve;
import java.io.IOException;
import java.io.InputStream;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Every row of BIP-340's published test vectors ({@code vectors/sign/bip-0340-test-vectors.csv}). */
class Bip340SchnorrTest {
    private static final HexFormat HEX = HexFormat.of();

    /** One CSV row: index, secret key, public key, aux_rand, message, signature, verification result, comment. */
    record Row(
            int index,
            String secretKey,
            String publicKey,
            String auxRand,
            String message,
            String signature,
            boolean valid,
            String comment) {
        @Override
        public String toString() {
            return "vector " + index + (comment.isEmpty() ? "" : " (" + comment + ")");
        }
    }

    static Stream<Row> rows() throws IOException {
        try (InputStream in = Bip340SchnorrTest.class.getResourceAsStream("/vectors/sign/bip-0340-test-vectors.csv")) {
            List<String> lines = new String(in.readAllBytes(), StandardCharsets.UTF_8)
                    .lines()
                    .skip(1)
                    .toList();
            return lines.stream()
                    .map(line -> {
                        String[] f = line.split(",", -1);
                        return new Row(Integer.parseInt(f[0]), f[1], f[2], f[3], f[4], f[5], f[6].equals("TRUE"), f[7]);
                    })
                    .toList()
                    .stream();
        }
    }

    static Stream<Row> signingRows() throws IOException {
        return rows().filter(row -> !row.secretKey().isEmpty());
    }

    @Test
    void theFileHoldsAllNineteenPublishedRows() throws IOException {
        assertThat(rows().map(Row::index))
                .containsExactlyElementsOf(
                        Stream.iterate(0, i -> i + 1).limit(19).toList());
        assertThat(signingRows().count()).isEqualTo(8);
    }

    @ParameterizedTest
    @MethodSource("signingRows")
    void signsEachSigningVectorWithItsAuxRandToThePublishedSignature(Row row) {
        BigInteger secret = new BigInteger(row.secretKey(), 16);

        byte[] signature = Bip340Schnorr.sign(secret, HEX.parseHex(row.message()), HEX.parseHex(row.auxRand()));

        assertThat(HEX.formatHex(signature)).isEqualTo(row.signature().toLowerCase(Locale.ROOT));
        assertThat(HEX.formatHex(Bip340Schnorr.xBytes(Bip340Schnorr.multiplyG(secret))))
                .isEqualTo(row.publicKey().toLowerCase(Locale.ROOT));
    }

    @ParameterizedTest
    @MethodSource("rows")
    void verifiesEachVectorToItsPublishedResult(Row row) {
        assertThat(Bip340Schnorr.verify(
                        HEX.parseHex(row.publicKey()), HEX.parseHex(row.message()), HEX.parseHex(row.signature())))
                .isEqualTo(row.valid());
    }

    @Test
    void verificationRefusesMalformedArgumentsWithoutThrowing() {
        byte[] key = HEX.parseHex("F9308A019258C31049344F85F89D5229B531C845836F99B08601F113BCE036F9");
        assertThat(Bip340Schnorr.verify(key, new byte[32], new byte[63])).isFalse();
        assertThat(Bip340Schnorr.verify(new byte[31], new byte[32], new byte[64]))
                .isFalse();
        assertThat(Bip340Schnorr.verify(null, new byte[32], new byte[64])).isFalse();
        assertThat(Bip340Schnorr.verify(key, null, new byte[64])).isFalse();
    }

    @Test
    void refusesASecretOutsideTheGroupAndAuxOfTheWrongLength() {
        BigInteger n = EcCurve.SECP256K1.order();
        assertThatThrownBy(() -> Bip340Schnorr.sign(BigInteger.ZERO, new byte[32], new byte[32]))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Bip340Schnorr.sign(n, new byte[32], new byte[32]))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Bip340Schnorr.sign(BigInteger.ONE, new byte[32], new byte[31]))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
