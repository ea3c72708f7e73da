package dev.keyhaven.server.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.keyhaven.server.custody.KekLocator;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

class KekOptionsTest {
    private static final Path DEFAULT_FILE = Path.of("/data/master.key");

    @Command(name = "test")
    static final class Host {
        @Mixin
        KekOptions kek;
    }

    private static KekOptions parse(String... args) {
        Host host = new Host();
        new CommandLine(host).setCaseInsensitiveEnumValuesAllowed(true).parseArgs(args);
        return host.kek;
    }

    @Test
    void theDefaultIsTheFileTheCallerNames() {
        assertThat(parse().locator(DEFAULT_FILE)).isEqualTo(new KekLocator.File(DEFAULT_FILE));
        assertThat(parse("--kek", "file").locator(DEFAULT_FILE)).isEqualTo(new KekLocator.File(DEFAULT_FILE));
    }

    @Test
    void pkcs11NamesTheTokenKey() {
        KekLocator locator = parse(
                        "--kek",
                        "PKCS11",
                        "--pkcs11-library",
                        "/usr/lib/softhsm/libsofthsm2.so",
                        "--pkcs11-token-label",
                        "keyhaven",
                        "--pkcs11-pin-file",
                        "/run/pin",
                        "--pkcs11-key-label",
                        "kek")
                .locator(DEFAULT_FILE);
        assertThat(locator)
                .isEqualTo(new KekLocator.Pkcs11(
                        Path.of("/usr/lib/softhsm/libsofthsm2.so"), "keyhaven", "kek", Path.of("/run/pin")));
    }

    @Test
    void pkcs11WithoutItsOptionsNamesTheMissingOnes() {
        assertThatThrownBy(() -> parse("--kek", "pkcs11", "--pkcs11-pin-file", "/run/pin")
                        .locator(DEFAULT_FILE))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("--kek pkcs11 needs --pkcs11-library, --pkcs11-token-label, --pkcs11-key-label");
    }

    @Test
    void pkcs11OptionsWithAFileKekAreRefusedRatherThanIgnored() {
        assertThatThrownBy(() -> parse("--pkcs11-token-label", "keyhaven", "--pkcs11-key-label", "kek")
                        .locator(DEFAULT_FILE))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("--pkcs11-token-label, --pkcs11-key-label given without --kek pkcs11 (the KEK is a file "
                        + "unless --kek pkcs11 is given)");
    }
}
