package dev.keyhaven.server.app;

import static org.assertj.core.api.Assertions.assertThat;

import dev.keyhaven.server.testing.KeyhavenProcess;
import dev.keyhaven.server.testing.KeyhavenProcess.Result;
import dev.keyhaven.server.testing.ServedJar;
import dev.keyhaven.server.testing.StoreKind;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * {@code serve} refuses to start rather than run without listening: a port already in use (the API's or the auth
 * proxy's) ends it with a failed exit status and one line naming the address, the port and the options, and bad
 * connection options are usage errors. Before the fix it logged Helidon's bind error, printed
 * {@code Keyhaven is serving on http://127.0.0.1:-1} and kept running.
 */
@ParameterizedClass
@EnumSource(StoreKind.class)
class ServeStartIT {
    @Parameter
    StoreKind store;

    @TempDir
    Path directory;

    private ServedJar jar;

    @BeforeEach
    void prepare() {
        jar = ServedJar.in(store, directory);
    }

    @AfterEach
    void dropDatabase() {
        jar.close();
    }

    @Test
    void anApiPortInUseStopsServeWithOneLine() throws IOException {
        try (ServerSocket taken = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            int port = taken.getLocalPort();
            List<String> arguments = jar.storeArguments();
            arguments.addAll(List.of("--port", Integer.toString(port)));
            Result result = KeyhavenProcess.run(prefixed(arguments), Map.of());
            assertRefusedWith(
                    result,
                    "keyhaven: cannot listen on 127.0.0.1:" + port + " for the API (--bind, "
                            + "--port): Address already in use");
        }
    }

    @Test
    void anAuthProxyPortInUseStopsServeWithOneLine() throws IOException {
        try (ServerSocket taken = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            int port = taken.getLocalPort();
            Result result = KeyhavenProcess.run(
                    prefixed(jar.serveArguments()), Map.of("KEYHAVEN_AUTH_PROXY_PORT", Integer.toString(port)));
            assertRefusedWith(
                    result,
                    "keyhaven: cannot listen on 127.0.0.1:" + port + " for the auth proxy "
                            + "(--bind, --auth-proxy-port): Address already in use");
        }
    }

    @Test
    void badConnectionAndRateOptionsAreUsageErrorsNamingTheOption() {
        Map<String, String> cases = Map.of(
                "KEYHAVEN_MAX_CONNECTIONS",
                        "--max-connections must be 0 (derived from the file-descriptor limit) " + "or more: -1",
                "KEYHAVEN_IDLE_TIMEOUT_SECONDS", "--idle-timeout-seconds must be 1 to 86400: -1",
                "KEYHAVEN_HEADER_TIMEOUT_SECONDS", "--header-timeout-seconds must be 1 to 86400: -1",
                "KEYHAVEN_BODY_TIMEOUT_SECONDS", "--body-timeout-seconds must be 1 to 86400: -1",
                "KEYHAVEN_SIGN_IN_LIMIT_PER_CONTACT", "--sign-in-limit-per-contact must be at least 1: -1",
                "KEYHAVEN_SIGN_IN_LIMIT_PER_ADDRESS", "--sign-in-limit-per-address must be at least 1: -1",
                "KEYHAVEN_SIGN_IN_LIMIT_WINDOW_SECONDS", "--sign-in-limit-window-seconds must be at least 1: -1");
        cases.forEach((variable, message) -> {
            Result result = KeyhavenProcess.run(prefixed(jar.serveArguments()), Map.of(variable, "-1"));
            assertThat(result.exitCode()).as("exit status with %s=-1", variable).isEqualTo(2);
            assertThat(result.stderr().lines().findFirst())
                    .as("first line with %s=-1", variable)
                    .contains(message);
        });
        Result zero = KeyhavenProcess.run(prefixed(jar.serveArguments("--body-timeout-seconds", "0")), Map.of());
        assertThat(zero.exitCode()).isEqualTo(2);
        assertThat(zero.stderr().lines().findFirst()).contains("--body-timeout-seconds must be 1 to 86400: 0");
    }

    private static void assertRefusedWith(Result result, String line) {
        assertThat(result.exitCode())
                .as("exit status; stderr: %s", result.stderr())
                .isEqualTo(1);
        assertThat(result.stdout()).doesNotContain("Keyhaven is serving on");
        List<String> mentions = result.stderr()
                .lines()
                .filter(l -> l.contains("cannot listen")
                        || l.contains("BindException")
                        || l.contains("Address already in use"))
                .toList();
        assertThat(mentions).containsExactly(line);
        assertThat(result.stderr().lines().toList()).as("stderr").last().isEqualTo(line);
        assertThat(result.stderr() + result.stdout()).doesNotContain("\tat ").doesNotContain("Exception");
    }

    private static List<String> prefixed(List<String> arguments) {
        List<String> command = new ArrayList<>(List.of("serve"));
        command.addAll(arguments);
        return command;
    }
}
