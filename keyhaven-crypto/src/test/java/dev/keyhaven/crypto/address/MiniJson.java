package dev.keyhaven.crypto.address;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Just enough JSON to read bip-0341/wallet-test-vectors.json in tests without a JSON dependency: objects become
 * maps, arrays lists, strings strings, numbers doubles, null null.
 */
final class MiniJson {
    private final String s;
    private int i;

    private MiniJson(String s) {
        this.s = s;
    }

    static Object parse(String json) {
        MiniJson parser = new MiniJson(json);
        Object value = parser.value();
        parser.skipSpace();
        if (parser.i != json.length()) {
            throw new IllegalArgumentException("trailing characters at " + parser.i);
        }
        return value;
    }

    private Object value() {
        skipSpace();
        char c = s.charAt(i);
        if (c == '{') {
            Map<String, Object> map = new LinkedHashMap<>();
            i++;
            skipSpace();
            if (s.charAt(i) == '}') {
                i++;
                return map;
            }
            do {
                skipSpace();
                String key = string();
                skipSpace();
                expect(':');
                map.put(key, value());
                skipSpace();
            } while (s.charAt(i++) == ',');
            check(s.charAt(i - 1) == '}');
            return map;
        }
        if (c == '[') {
            List<Object> list = new ArrayList<>();
            i++;
            skipSpace();
            if (s.charAt(i) == ']') {
                i++;
                return list;
            }
            do {
                list.add(value());
                skipSpace();
            } while (s.charAt(i++) == ',');
            check(s.charAt(i - 1) == ']');
            return list;
        }
        if (c == '"') {
            return string();
        }
        if (s.startsWith("null", i)) {
            i += 4;
            return null;
        }
        if (s.startsWith("true", i) || s.startsWith("false", i)) {
            boolean value = s.startsWith("true", i);
            i += value ? 4 : 5;
            return value;
        }
        int start = i;
        while (i < s.length() && "+-0123456789.eE".indexOf(s.charAt(i)) >= 0) {
            i++;
        }
        check(i > start);
        return Double.parseDouble(s.substring(start, i));
    }

    private String string() {
        expect('"');
        StringBuilder out = new StringBuilder();
        while (s.charAt(i) != '"') {
            char c = s.charAt(i++);
            if (c == '\\') {
                char e = s.charAt(i++);
                switch (e) {
                    case 'n' -> out.append('\n');
                    case 't' -> out.append('\t');
                    case 'u' -> {
                        out.append((char) Integer.parseInt(s.substring(i, i + 4), 16));
                        i += 4;
                    }
                    default -> out.append(e);
                }
            } else {
                out.append(c);
            }
        }
        i++;
        return out.toString();
    }

    private void expect(char c) {
        check(s.charAt(i) == c);
        i++;
    }

    private void check(boolean ok) {
        if (!ok) {
            throw new IllegalArgumentException("malformed JSON at " + i);
        }
    }

    private void skipSpace() {
        while (i < s.length() && Character.isWhitespace(s.charAt(i))) {
            i++;
        }
    }
}
