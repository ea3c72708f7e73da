package dev.keyhaven.server.fuzz;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.keyhaven.server.api.ApiException;
import dev.keyhaven.server.auth.StampHeaders;
import dev.keyhaven.server.auth.VerifiedStamp;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Coverage-guided fuzzing of the stamp headers (Jazzer; docs/fuzzing.md): {@code X-Stamp}, {@code X-Stamp-WebAuthn}
 * and {@code X-Stamp-Attested} parsed and verified over a body by the server's {@code RequestAuthenticator}. Whatever
 * the headers and body, a stamp verifies or is refused with a 401 {@link ApiException}: nothing else comes out.
 *
 * <p>An input is three lines, the values of the three headers (an empty line: the header is absent), then the body.
 * The seeds are the committed ones plus a valid stamp of each kind made with this run's keys.
 */
class StampGuidedFuzzTest {
    private static final StampVerifiers VERIFIERS = new StampVerifiers();
    private static final byte[] BODY = ("{\"type\":\"ACTIVITY_TYPE_CREATE_WALLET\",\"timestampMs\":\"1773154800000\","
                    + "\"organizationId\":\"00000000-0000-0000-0000-000000000000\",\"parameters\":{\"walletName\":\"w\","
                    + "\"accounts\":[]}}")
            .getBytes(StandardCharsets.UTF_8);

    static Stream<Arguments> seeds() {
        return Stream.concat(
                FuzzSeeds.of("stamp"),
                VERIFIERS.validStamps(BODY).stream()
                        .map(input -> Arguments.of(Named.of("valid stamp made now", input))));
    }

    @MethodSource("seeds")
    @FuzzTest(maxDuration = "1m")
    @Timeout(10)
    void verifiesOrRefusesWith401(byte[] input) {
        String[] headers = new String[3];
        int start = 0;
        for (int line = 0; line < 3; line++) {
            int end = indexOf(input, start);
            if (end < 0) {
                return;
            }
            headers[line] = new String(input, start, end - start, StandardCharsets.UTF_8);
            start = end + 1;
        }
        byte[] body = Arrays.copyOfRange(input, start, input.length);
        StampHeaders stamps = new StampHeaders(present(headers[0]), present(headers[1]), present(headers[2]));
        try {
            VerifiedStamp verified = VERIFIERS.authenticator().verify(stamps, body);
            assertThat(verified.credentialKey()).isNotEmpty();
        } catch (ApiException refused) {
            assertThat(refused.code().httpStatus()).as(refused.getMessage()).isEqualTo(401);
        }
    }

    /** The committed API-key stamps carry their key, so they stay valid: they seed the fuzzer with a success. */
    @ParameterizedTest
    @ValueSource(strings = {"x-stamp-p256.txt", "x-stamp-secp256k1.txt", "x-stamp-ed25519.txt"})
    void theCommittedApiKeyStampsVerify(String seed) throws IOException {
        byte[] input;
        try (InputStream in = StampGuidedFuzzTest.class.getResourceAsStream("/fuzz/stamp/" + seed)) {
            input = in.readAllBytes();
        }
        String text = new String(input, StandardCharsets.UTF_8);
        int bodyStart = text.indexOf("\n\n\n") + 3;
        StampHeaders stamps =
                new StampHeaders(Optional.of(text.substring(0, bodyStart - 3)), Optional.empty(), Optional.empty());

        VerifiedStamp verified = VERIFIERS
                .authenticator()
                .verify(stamps, text.substring(bodyStart).getBytes(StandardCharsets.UTF_8));

        assertThat(verified.kind()).isEqualTo(VerifiedStamp.Kind.API_KEY);
    }

    private static Optional<String> present(String header) {
        return header.isEmpty() ? Optional.empty() : Optional.of(header);
    }

    private static int indexOf(byte[] input, int from) {
        for (int i = from; i < input.length; i++) {
            if (input[i] == '\n') {
                return i;
            }
        }
        return -1;
    }
}
