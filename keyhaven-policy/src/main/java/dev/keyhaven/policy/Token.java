package dev.keyhaven.policy;

/**
 * One token. {@code text} is the identifier, the digits of an integer, or the unescaped content of a string; for
 * operators it is the operator itself. {@code column} is 1-based.
 */
record Token(TokenKind kind, String text, int column) {

    /** How an error message names this token: the text as written for names and numbers, the kind otherwise. */
    String display() {
        return switch (kind) {
            case IDENTIFIER, INTEGER -> "'" + text + "'";
            default -> kind.display;
        };
    }
}
