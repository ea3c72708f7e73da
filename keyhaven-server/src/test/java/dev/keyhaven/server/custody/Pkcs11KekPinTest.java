package dev.keyhaven.server.custody;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The PIN file: read as written, one trailing newline dropped, never echoed in an error. */
class Pkcs11KekPinTest {
    @TempDir
    Path directory;

    @Test
    void oneTrailingNewlineIsDroppedLfOrCrlf() throws Exception {
        assertThat(Pkcs11Kek.readPin(Files.writeString(directory.resolve("lf"), "12 34\n")))
                .containsExactly('1', '2', ' ', '3', '4');
        assertThat(Pkcs11Kek.readPin(Files.writeString(directory.resolve("crlf"), "1234\r\n")))
                .containsExactly('1', '2', '3', '4');
        assertThat(Pkcs11Kek.readPin(Files.writeString(directory.resolve("none"), "pïn")))
                .containsExactly('p', 'ï', 'n');
        assertThat(Pkcs11Kek.readPin(Files.writeString(directory.resolve("two"), "1234\n\n")))
                .containsExactly('1', '2', '3', '4', '\n');
    }

    @Test
    void anEmptyOrNonUtf8PinFileIsRefusedWithoutItsContent() throws Exception {
        Path empty = Files.writeString(directory.resolve("empty"), "");
        assertThatThrownBy(() -> Pkcs11Kek.readPin(empty))
                .isInstanceOf(CustodyException.class)
                .hasMessage("the PKCS#11 PIN file " + empty + " is empty");
        Path latin1 = Files.write(directory.resolve("latin1"), new byte[] {'1', (byte) 0xE9, '2'});
        assertThatThrownBy(() -> Pkcs11Kek.readPin(latin1))
                .isInstanceOf(CustodyException.class)
                .hasMessage("the PKCS#11 PIN file " + latin1 + " is not UTF-8 text");
    }
}
