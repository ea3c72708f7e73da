package dev.keyhaven.chains.solana;

import java.util.Locale;

/**
 * snake_case as the Rust crate {@code heck} writes it, which Anchor before 0.30 applied to an instruction's
 * (camelCase) IDL name to derive its discriminator. Words are split at characters that are not letters or digits, after
 * a lowercase letter (or a digit following one) that an uppercase letter follows, and before the last of a run of
 * uppercase letters that a lowercase letter follows ({@code XMLHttp} is {@code xml_http}); words are lowercased and
 * joined with underscores.
 */
final class SnakeCase {
    private enum Mode {
        BOUNDARY,
        LOWERCASE,
        UPPERCASE
    }

    private SnakeCase() {}

    static String of(String name) {
        StringBuilder out = new StringBuilder(name.length() + 8);
        for (String word : name.split("[^\\p{IsAlphabetic}\\p{IsDigit}]+")) {
            Mode mode = Mode.BOUNDARY;
            int start = 0;
            for (int i = 0; i < word.length(); i++) {
                char c = word.charAt(i);
                if (i + 1 == word.length()) {
                    append(out, word.substring(start));
                    break;
                }
                char next = word.charAt(i + 1);
                Mode nextMode =
                        Character.isLowerCase(c) ? Mode.LOWERCASE : Character.isUpperCase(c) ? Mode.UPPERCASE : mode;
                if (nextMode == Mode.LOWERCASE && Character.isUpperCase(next)) {
                    append(out, word.substring(start, i + 1));
                    start = i + 1;
                    mode = Mode.BOUNDARY;
                } else if (mode == Mode.UPPERCASE && Character.isUpperCase(c) && Character.isLowerCase(next)) {
                    append(out, word.substring(start, i));
                    start = i;
                    mode = Mode.BOUNDARY;
                } else {
                    mode = nextMode;
                }
            }
        }
        return out.toString();
    }

    private static void append(StringBuilder out, String word) {
        if (word.isEmpty()) {
            return;
        }
        if (!out.isEmpty()) {
            out.append('_');
        }
        out.append(word.toLowerCase(Locale.ROOT));
    }
}
