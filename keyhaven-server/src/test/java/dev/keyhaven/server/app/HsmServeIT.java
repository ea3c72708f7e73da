package dev.keyhaven.server.app;

import static org.assertj.core.api.Assertions.assertThat;

import dev.keyhaven.client.ApiKeyStamper;
import dev.keyhaven.client.KeyhavenClient;
import dev.keyhaven.client.Requests.PrivateKeyParams;
import dev.keyhaven.server.testing.KeyhavenProcess;
import dev.keyhaven.server.testing.SoftHsm;
import dev.keyhaven.server.testing.TemporaryDirectory;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code java -jar keyhaven.jar serve --kek pkcs11 …} against a SoftHSM2 of the test's own, as an operator runs it:
 * it serves and signs, serves again after a restart, and refuses to start with one line for a wrong PIN, a missing
 * token, a missing key, and a KEK that is not the database's.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class HsmServeIT {
    private static final String TOKEN = "keyhaven-serve";
    private static final String DIGEST = "42".repeat(32);

    private SoftHsm softHsm;
    private Path pinFile;
    private Path data;

    @BeforeEach
    void softHsm() {
        softHsm = SoftHsm.create().initToken(TOKEN);
        pinFile = softHsm.pinFile(SoftHsm.PIN);
        data = TemporaryDirectory.create("keyhaven-hsm-serve").resolve("data");
        for (String key : List.of("kek-1", "kek-2")) {
            KeyhavenProcess.Result created = KeyhavenProcess.run(
                    concat(List.of("kek", "init"), kek(TOKEN, pinFile, key)), softHsm.environment());
            assertThat(created.exitCode()).as(created.stderr()).isZero();
        }
    }

    @AfterEach
    void cleanUp() {
        softHsm.close();
        TemporaryDirectory.delete(data.getParent());
    }

    private static List<String> kek(String token, Path pin, String key) {
        return List.of(
                "--kek",
                "pkcs11",
                "--pkcs11-library",
                SoftHsm.MODULE.toString(),
                "--pkcs11-token-label",
                token,
                "--pkcs11-pin-file",
                pin.toString(),
                "--pkcs11-key-label",
                key);
    }

    private List<String> serveArgs(List<String> kek) {
        return concat(List.of("--data-dir", data.toString(), "--port", "0"), kek);
    }

    private static List<String> concat(List<String> first, List<String> second) {
        List<String> all = new ArrayList<>(first);
        all.addAll(second);
        return all;
    }

    @Test
    void servesSignsAndRestartsWithTheKekOnTheToken() throws IOException {
        String privateKeyId;
        try (KeyhavenProcess server =
                KeyhavenProcess.serve(serveArgs(kek(TOKEN, pinFile, "kek-1")), softHsm.environment())) {
            KeyhavenClient root = new KeyhavenClient(server.baseUrl(), rootStamper(), server.organizationId());
            privateKeyId = root.createPrivateKeys(
                            List.of(new PrivateKeyParams("in-hsm", "CURVE_SECP256K1", List.of(), List.of())))
                    .result()
                    .path("privateKeys")
                    .get(0)
                    .path("privateKeyId")
                    .asString();
            assertThat(root.signRawPayload(privateKeyId, DIGEST, "PAYLOAD_ENCODING_HEXADECIMAL", "HASH_FUNCTION_NO_OP")
                            .isCompleted())
                    .isTrue();
        }
        // No key file was made: the KEK is the token's.
        assertThat(data.resolve("master.key")).doesNotExist();
        try (KeyhavenProcess again =
                KeyhavenProcess.serve(serveArgs(kek(TOKEN, pinFile, "kek-1")), softHsm.environment())) {
            KeyhavenClient root = new KeyhavenClient(again.baseUrl(), rootStamper(), again.organizationId());
            assertThat(root.signRawPayload(privateKeyId, DIGEST, "PAYLOAD_ENCODING_HEXADECIMAL", "HASH_FUNCTION_NO_OP")
                            .isCompleted())
                    .isTrue();
        }

        Path wrongPin = softHsm.pinFile("0000-wrong");
        assertRefused(
                kek(TOKEN, wrongPin, "kek-1"),
                "keyhaven: the PIN in " + wrongPin + " is wrong for PKCS#11 token '" + TOKEN + "' (CKR_PIN_INCORRECT)");
        assertRefused(
                kek("keyhaven-gone", pinFile, "kek-1"),
                "keyhaven: no PKCS#11 token labelled 'keyhaven-gone' in " + SoftHsm.MODULE + " (its tokens: '" + TOKEN
                        + "')");
        assertRefused(
                kek(TOKEN, pinFile, "kek-missing"),
                "keyhaven: no key labelled 'kek-missing' on PKCS#11 token '" + TOKEN
                        + "': run `kek init` with the same options to create it");
        String other = "PKCS#11 key 'kek-2' on token '" + TOKEN + "' (" + SoftHsm.MODULE + ")";
        String current = "PKCS#11 key 'kek-1' on token '" + TOKEN + "' (" + SoftHsm.MODULE + ")";
        assertRefused(
                kek(TOKEN, pinFile, "kek-2"),
                "keyhaven: the KEK (" + other + ") does not open this database; its current KEK is generation 1, "
                        + current + "; refusing to start");
    }

    private void assertRefused(List<String> kek, String line) {
        KeyhavenProcess.Result refused =
                KeyhavenProcess.run(concat(List.of("serve"), serveArgs(kek)), softHsm.environment());
        assertThat(refused.exitCode()).as(refused.stderr()).isEqualTo(1);
        assertThat(refused.stderr()).isEqualTo(line + "\n");
    }

    private ApiKeyStamper rootStamper() throws IOException {
        return ApiKeyStamper.fromPrivateKey(
                ApiKeyStamper.Curve.P256, Files.readString(data.resolve("root-api-key.private")));
    }
}
