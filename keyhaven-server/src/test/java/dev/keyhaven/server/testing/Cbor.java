package dev.keyhaven.server.testing;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * The little CBOR (RFC 8949) a software authenticator writes: maps in insertion order, integers, byte strings and
 * text strings. Written here rather than borrowed from webauthn4j so that tests do not check webauthn4j against
 * itself.
 */
final class Cbor {
    private Cbor() {}

    static byte[] encode(Object value) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        write(out, value);
        return out.toByteArray();
    }

    private static void write(ByteArrayOutputStream out, Object value) {
        switch (value) {
            case Integer i -> writeInteger(out, i.longValue());
            case Long l -> writeInteger(out, l);
            case byte[] bytes -> {
                head(out, 2, bytes.length);
                out.writeBytes(bytes);
            }
            case String text -> {
                byte[] utf8 = text.getBytes(StandardCharsets.UTF_8);
                head(out, 3, utf8.length);
                out.writeBytes(utf8);
            }
            case Map<?, ?> map -> {
                head(out, 5, map.size());
                map.forEach((k, v) -> {
                    write(out, k);
                    write(out, v);
                });
            }
            default -> throw new IllegalArgumentException("cannot encode " + value.getClass());
        }
    }

    private static void writeInteger(ByteArrayOutputStream out, long value) {
        if (value >= 0) {
            head(out, 0, value);
        } else {
            head(out, 1, -1 - value);
        }
    }

    private static void head(ByteArrayOutputStream out, int majorType, long argument) {
        int major = majorType << 5;
        if (argument < 24) {
            out.write(major | (int) argument);
        } else if (argument < 0x100) {
            out.write(major | 24);
            out.write((int) argument);
        } else if (argument < 0x10000) {
            out.write(major | 25);
            out.write((int) (argument >> 8));
            out.write((int) argument);
        } else {
            out.write(major | 26);
            for (int shift = 24; shift >= 0; shift -= 8) {
                out.write((int) (argument >> shift));
            }
        }
    }
}
