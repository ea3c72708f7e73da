package dev.keyhaven.server.custody;

import java.nio.file.Path;
import java.util.Objects;

/**
 * Where a KEK lives, with no secret in it: a file, or a key on a PKCS#11 token. The database records the current
 * one's locator, so a server that meets a data key wrapped by a newer KEK (after {@code kek rotate}) knows where to
 * find it.
 */
public sealed interface KekLocator {

    /** A KEK held in a file: 32 bytes as hex, readable only by its owner. */
    record File(Path path) implements KekLocator {
        public File {
            Objects.requireNonNull(path, "path");
        }

        @Override
        public String toString() {
            return "file " + path;
        }
    }

    /**
     * An AES-256 key labelled {@code keyLabel} on the PKCS#11 token labelled {@code tokenLabel}, reached through the
     * module {@code library}, the user PIN read from {@code pinFile}. The key is sensitive and never extractable.
     * {@link Pkcs11Kek#open} opens it; {@link Pkcs11Kek#init} (the {@code kek init} command) creates it when missing.
     */
    record Pkcs11(Path library, String tokenLabel, String keyLabel, Path pinFile) implements KekLocator {
        public Pkcs11 {
            Objects.requireNonNull(library, "library");
            Objects.requireNonNull(tokenLabel, "tokenLabel");
            Objects.requireNonNull(keyLabel, "keyLabel");
            Objects.requireNonNull(pinFile, "pinFile");
        }

        @Override
        public String toString() {
            return "PKCS#11 key '" + keyLabel + "' on token '" + tokenLabel + "' (" + library + ")";
        }
    }
}
