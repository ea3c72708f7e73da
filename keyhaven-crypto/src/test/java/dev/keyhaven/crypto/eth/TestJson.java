package dev.keyhaven.crypto.eth;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A small JSON reader for test vectors, producing the value model the server's JSON parser hands to {@link Eip712}:
 * LinkedHashMap, ArrayList, String, Boolean, null, and Integer/Long/BigInteger for integers (as Jackson does by
 * default), BigDecimal for numbers with a fraction or exponent. The module has no JSON library, and the vectors are
 * easiest to trust when they stay the JSON the reference libraries were given.
 */
final class TestJson {
    private final String text;
    private int at;

    private TestJson(String text) {
        this.text = text;
    }

    static Object parse(String text) {
        TestJson reader = new TestJson(text);
        Object value = reader.value();
        reader.skipWhitespace();
        if (reader.at != text.length()) {
            throw reader.error("trailing characters");
        }
        return value;
    }

    static Object resource(String path) {
        try (InputStream in = TestJson.class.getResourceAsStream(path)) {
            if (in == null) {
                throw new IllegalArgumentException("no test resource " + path);
            }
            return parse(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> object(Object value) {
        return (Map<String, Object>) value;
    }

    private Object value() {
        skipWhitespace();
        if (at >= text.length()) {
            throw error("unexpected end");
        }
        char c = text.charAt(at);
        return switch (c) {
            case '{' -> object();
            case '[' -> array();
            case '"' -> string();
            case 't' -> literal("true", Boolean.TRUE);
            case 'f' -> literal("false", Boolean.FALSE);
            case 'n' -> literal("null", null);
            default -> number();
        };
    }

    private Map<String, Object> object() {
        Map<String, Object> map = new LinkedHashMap<>();
        at++;
        skipWhitespace();
        if (text.charAt(at) == '}') {
            at++;
            return map;
        }
        while (true) {
            skipWhitespace();
            String key = string();
            skipWhitespace();
            expect(':');
            map.put(key, value());
            skipWhitespace();
            if (text.charAt(at) == ',') {
                at++;
            } else {
                expect('}');
                return map;
            }
        }
    }

    private List<Object> array() {
        List<Object> list = new ArrayList<>();
        at++;
        skipWhitespace();
        if (text.charAt(at) == ']') {
            at++;
            return list;
        }
        while (true) {
            list.add(value());
            skipWhitespace();
            if (text.charAt(at) == ',') {
                at++;
            } else {
                expect(']');
                return list;
            }
        }
    }

    private String string() {
        expect('"');
        StringBuilder out = new StringBuilder();
        while (true) {
            char c = text.charAt(at++);
            if (c == '"') {
                return out.toString();
            }
            if (c != '\\') {
                out.append(c);
                continue;
            }
            char e = text.charAt(at++);
            switch (e) {
                case '"', '\\', '/' -> out.append(e);
                case 'b' -> out.append('\b');
                case 'f' -> out.append('\f');
                case 'n' -> out.append('\n');
                case 'r' -> out.append('\r');
                case 't' -> out.append('\t');
                case 'u' -> {
                    out.append((char) Integer.parseInt(text.substring(at, at + 4), 16));
                    at += 4;
                }
                default -> throw error("bad escape");
            }
        }
    }

    private Object number() {
        int start = at;
        while (at < text.length() && "+-0123456789.eE".indexOf(text.charAt(at)) >= 0) {
            at++;
        }
        String digits = text.substring(start, at);
        if (digits.isEmpty()) {
            throw error("unexpected character");
        }
        if (digits.contains(".") || digits.contains("e") || digits.contains("E")) {
            return new BigDecimal(digits);
        }
        BigInteger value = new BigInteger(digits);
        if (value.bitLength() < 32) {
            return value.intValue();
        }
        return value.bitLength() < 64 ? (Object) value.longValue() : value;
    }

    private Object literal(String word, Object value) {
        if (!text.startsWith(word, at)) {
            throw error("unexpected literal");
        }
        at += word.length();
        return value;
    }

    private void expect(char c) {
        if (at >= text.length() || text.charAt(at) != c) {
            throw error("expected '" + c + "'");
        }
        at++;
    }

    private void skipWhitespace() {
        while (at < text.length() && Character.isWhitespace(text.charAt(at))) {
            at++;
        }
    }

    private IllegalArgumentException error(String problem) {
        return new IllegalArgumentException("JSON " + problem + " at offset " + at);
    }
}
