package dev.keyhaven.chains;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A fuzz input that carries a JSON document and bytes to read with it: the document, a NUL byte, then the bytes. A
 * JSON text cannot hold a raw NUL, so the split is unambiguous; without a NUL the whole input is the document.
 */
public record FuzzInputs(String json, byte[] data) {
    public static FuzzInputs split(byte[] input) {
        for (int i = 0; i < input.length; i++) {
            if (input[i] == 0) {
                return new FuzzInputs(
                        new String(input, 0, i, StandardCharsets.UTF_8),
                        Arrays.copyOfRange(input, i + 1, input.length));
            }
        }
        return new FuzzInputs(new String(input, StandardCharsets.UTF_8), new byte[0]);
    }
}
