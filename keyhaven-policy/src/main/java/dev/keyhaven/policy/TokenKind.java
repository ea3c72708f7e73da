package dev.keyhaven.policy;

/** The lexical categories of the policy language; {@link #display} is how error messages name them. */
enum TokenKind {
    IDENTIFIER("a name"),
    INTEGER("an integer"),
    STRING("a string"),
    TRUE("'true'"),
    FALSE("'false'"),
    IN("'in'"),
    AND("'&&'"),
    OR("'||'"),
    NOT("'!'"),
    EQ("'=='"),
    NE("'!='"),
    LT("'<'"),
    GT("'>'"),
    LE("'<='"),
    GE("'>='"),
    LEFT_PAREN("'('"),
    RIGHT_PAREN("')'"),
    LEFT_BRACKET("'['"),
    RIGHT_BRACKET("']'"),
    COMMA("','"),
    DOT("'.'"),
    RANGE("'..'"),
    END("end of input");

    final String display;

    TokenKind(String display) {
        this.display = display;
    }
}
