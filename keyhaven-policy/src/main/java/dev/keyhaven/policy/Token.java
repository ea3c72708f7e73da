package dev.keyhaven.policy;

/**
 * One token. {@code text} is the identifier, the digits of an integer, or the unescaped content of a string; for
 * operators it is the operator itself. {@code column} is 1-based.
 */
record Token(TokenKind kind, String text, int column) {

    /** How an error message names this token: names and numbers as written, strings as literals, others by kind. */
    String display() {
        return switch (kind) {
            case IDENTIFIER, INTEGER -> "'" + text + "'";
            case STRING -> "string " + Printer.string(text);
            default -> kind.display;
        };
    }
}
