package dev.keyhaven.server.api;

import java.util.Locale;
import java.util.Optional;

/**
 * The characters Keyhaven refuses in every string it is given: NUL (U+0000), which PostgreSQL cannot store in text
 * while SQLite can, and unpaired surrogates, which are not characters at all and which each store's driver would
 * replace or mangle differently. Refusing both everywhere keeps the two stores answering alike, and what is stored
 * is what was sent.
 */
public final class TextFlaws {
    private TextFlaws() {}

    /** What is wrong with {@code text} ("a NUL character (U+0000)"), or empty when nothing is. */
    public static Optional<String> of(String text) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '\0') {
                return Optional.of("a NUL character (U+0000)");
            }
            if (Character.isHighSurrogate(c) && i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1))) {
                i++;
            } else if (Character.isSurrogate(c)) {
                return Optional.of(String.format(
                        Locale.ROOT, "an unpaired surrogate (\\u%04x), which is not a " + "Unicode character", (int)
                                c));
            }
        }
        return Optional.empty();
    }
}
