package dev.keyhaven.crypto.hd;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;

/** Reads the official vector files in {@code src/test/resources/vectors} (see the README there). */
final class Vectors {
    private Vectors() {}

    static String text(String name) {
        try (InputStream in = Vectors.class.getResourceAsStream("/vectors/" + name)) {
            if (in == null) {
                throw new IllegalStateException("missing vector file " + name);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static byte[] hex(String hex) {
        return HexFormat.of().parseHex(hex);
    }

    static String toHex(byte[] bytes) {
        return HexFormat.of().formatHex(bytes);
    }

    /** The BIPs write hardened indices as {@code 0<sub>H</sub>}; Keyhaven's parser takes {@code 0'}. */
    static String pathOf(String chain) {
        return chain.replace("<sub>H</sub>", "'");
    }
}
