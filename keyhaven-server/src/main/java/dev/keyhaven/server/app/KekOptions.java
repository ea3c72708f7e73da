package dev.keyhaven.server.app;

import dev.keyhaven.server.custody.KekLocator;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Option;

/**
 * Where the key-encryption key lives: the options of every command that opens it ({@code kek init}, and
 * {@code serve} and {@code kek rotate} through the same mixin). {@code --kek file} (the default) is a key file;
 * {@code --kek pkcs11} is a key on a PKCS#11 token, named by the four {@code --pkcs11-*} options.
 */
final class KekOptions {

    /** Where a KEK can live. */
    enum Kind {
        FILE,
        PKCS11
    }

    @Option(
            names = "--kek",
            defaultValue = "${env:KEYHAVEN_KEK:-file}",
            paramLabel = "file|pkcs11",
            description = "Where the key-encryption key lives: file (a key file, the default) or pkcs11 (a "
                    + "non-extractable AES-256 key on a PKCS#11 token, an HSM) (env: KEYHAVEN_KEK).")
    Kind kind;

    @Option(
            names = "--pkcs11-library",
            defaultValue = "${env:KEYHAVEN_PKCS11_LIBRARY}",
            paramLabel = "PATH",
            description = "With --kek pkcs11: the token's PKCS#11 module, e.g. /usr/lib/softhsm/libsofthsm2.so "
                    + "(env: KEYHAVEN_PKCS11_LIBRARY).")
    Path library;

    @Option(
            names = "--pkcs11-token-label",
            defaultValue = "${env:KEYHAVEN_PKCS11_TOKEN_LABEL}",
            paramLabel = "LABEL",
            description = "With --kek pkcs11: the label of the token holding the key "
                    + "(env: KEYHAVEN_PKCS11_TOKEN_LABEL).")
    String tokenLabel;

    @Option(
            names = "--pkcs11-pin-file",
            defaultValue = "${env:KEYHAVEN_PKCS11_PIN_FILE}",
            paramLabel = "FILE",
            description = "With --kek pkcs11: a file holding the token's user PIN (one trailing newline is ignored) "
                    + "(env: KEYHAVEN_PKCS11_PIN_FILE).")
    Path pinFile;

    @Option(
            names = "--pkcs11-key-label",
            defaultValue = "${env:KEYHAVEN_PKCS11_KEY_LABEL}",
            paramLabel = "KEY",
            description = "With --kek pkcs11: the label of the AES-256 key on the token; kek init creates it "
                    + "(env: KEYHAVEN_PKCS11_KEY_LABEL).")
    String keyLabel;

    /**
     * The KEK these options name: for {@code file}, {@code defaultFile} (the caller's choice, e.g.
     * {@code --master-key-file} or master.key in the data directory); for {@code pkcs11}, the token key.
     *
     * @throws IllegalArgumentException naming the options that are missing or do not belong, in one line
     */
    KekLocator locator(Path defaultFile) {
        List<String> pkcs11Options = new ArrayList<>();
        if (library != null) {
            pkcs11Options.add("--pkcs11-library");
        }
        if (tokenLabel != null) {
            pkcs11Options.add("--pkcs11-token-label");
        }
        if (pinFile != null) {
            pkcs11Options.add("--pkcs11-pin-file");
        }
        if (keyLabel != null) {
            pkcs11Options.add("--pkcs11-key-label");
        }
        return switch (kind) {
            case FILE -> {
                if (!pkcs11Options.isEmpty()) {
                    throw new IllegalArgumentException(String.join(", ", pkcs11Options)
                            + " given without --kek pkcs11 (the KEK is a file unless --kek pkcs11 is given)");
                }
                yield new KekLocator.File(defaultFile);
            }
            case PKCS11 -> {
                List<String> missing = new ArrayList<>();
                for (String option : List.of(
                        "--pkcs11-library", "--pkcs11-token-label", "--pkcs11-pin-file", "--pkcs11-key-label")) {
                    if (!pkcs11Options.contains(option)) {
                        missing.add(option);
                    }
                }
                if (!missing.isEmpty()) {
                    throw new IllegalArgumentException("--kek pkcs11 needs " + String.join(", ", missing));
                }
                yield new KekLocator.Pkcs11(library, tokenLabel, keyLabel, pinFile);
            }
        };
    }
}
