package dev.keyhaven.policy;

import java.util.ArrayList;
import java.util.List;

/**
 * Splits a source into tokens. Strings are single-quoted with two escapes, {@code \'} and {@code \\}; Turnkey
 * documents single quotes only and no escapes, so these two are the least that lets any string be written.
 */
final class Lexer {
    private final String source;
    private final List<Token> tokens = new ArrayList<>();
    private int position;

    private Lexer(String source) {
        this.source = source;
    }

    /** @throws PolicyParseException on a character or string the language does not have */
    static List<Token> tokenize(String source) {
        Lexer lexer = new Lexer(source);
        lexer.run();
        return lexer.tokens;
    }

    private void run() {
        while (true) {
            skipWhitespace();
            if (position >= source.length()) {
                tokens.add(new Token(TokenKind.END, "", position + 1));
                return;
            }
            char c = source.charAt(position);
            if (isIdentifierStart(c)) {
                identifierOrKeyword();
            } else if (isDigit(c)) {
                integer();
            } else if (c == '\'') {
                string();
            } else {
                operator(c);
            }
        }
    }

    private void skipWhitespace() {
        while (position < source.length()) {
            char c = source.charAt(position);
            if (c != ' ' && c != '\t' && c != '\n' && c != '\r') {
                return;
            }
            position++;
        }
    }

    private void identifierOrKeyword() {
        int start = position;
        while (position < source.length() && isIdentifierPart(source.charAt(position))) {
            position++;
        }
        String text = source.substring(start, position);
        TokenKind kind = switch (text) {
            case "true" -> TokenKind.TRUE;
            case "false" -> TokenKind.FALSE;
            case "in" -> TokenKind.IN;
            default -> TokenKind.IDENTIFIER;
        };
        tokens.add(new Token(kind, text, start + 1));
    }

    private void integer() {
        int start = position;
        while (position < source.length() && isDigit(source.charAt(position))) {
            position++;
        }
        tokens.add(new Token(TokenKind.INTEGER, source.substring(start, position), start + 1));
    }

    private void string() {
        int start = position;
        StringBuilder content = new StringBuilder();
        position++;
        while (true) {
            if (position >= source.length()) {
                throw new PolicyParseException("unterminated string", start + 1);
            }
            char c = source.charAt(position);
            if (c == '\'') {
                position++;
                tokens.add(new Token(TokenKind.STRING, content.toString(), start + 1));
                return;
            }
            if (c == '\\') {
                if (position + 1 >= source.length()) {
                    throw new PolicyParseException("unterminated string", start + 1);
                }
                char escaped = source.charAt(position + 1);
                if (escaped != '\'' && escaped != '\\') {
                    throw new PolicyParseException(
                            "unknown escape " + quoted("\\" + escaped) + " (only \\' and \\\\ exist)", position + 1);
                }
                content.append(escaped);
                position += 2;
            } else {
                content.append(c);
                position++;
            }
        }
    }

    private void operator(char c) {
        int column = position + 1;
        char next = position + 1 < source.length() ? source.charAt(position + 1) : '\0';
        TokenKind kind = switch (c) {
            case '(' -> TokenKind.LEFT_PAREN;
            case ')' -> TokenKind.RIGHT_PAREN;
            case '[' -> TokenKind.LEFT_BRACKET;
            case ']' -> TokenKind.RIGHT_BRACKET;
            case ',' -> TokenKind.COMMA;
            case '.' -> next == '.' ? TokenKind.RANGE : TokenKind.DOT;
            case '<' -> next == '=' ? TokenKind.LE : TokenKind.LT;
            case '>' -> next == '=' ? TokenKind.GE : TokenKind.GT;
            case '!' -> next == '=' ? TokenKind.NE : TokenKind.NOT;
            case '=' -> next == '=' ? TokenKind.EQ : fail("expected '=='", column);
            case '&' -> next == '&' ? TokenKind.AND : fail("expected '&&'", column);
            case '|' -> next == '|' ? TokenKind.OR : fail("expected '||'", column);
            case '"' -> fail("strings must use single quotes", column);
            default -> fail("unexpected character " + describe(source.codePointAt(position)), column);
        };
        int length = switch (kind) {
            case RANGE, LE, GE, NE, EQ, AND, OR -> 2;
            default -> 1;
        };
        tokens.add(new Token(kind, source.substring(position, position + length), column));
        position += length;
    }

    private static TokenKind fail(String problem, int column) {
        throw new PolicyParseException(problem, column);
    }

    private static boolean isIdentifierStart(char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
    }

    private static boolean isIdentifierPart(char c) {
        return isIdentifierStart(c) || isDigit(c);
    }

    private static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }

    /** Printable characters as themselves, anything else (controls, lone surrogates, …) as U+XXXX. */
    private static String describe(int codePoint) {
        if (codePoint > ' ' && codePoint < 0x7f) {
            return quoted(Character.toString(codePoint));
        }
        return String.format("U+%04X", codePoint);
    }

    private static String quoted(String text) {
        return "'" + text + "'";
    }
}
