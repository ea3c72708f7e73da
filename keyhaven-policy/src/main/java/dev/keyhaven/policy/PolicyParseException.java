package dev.keyhaven.policy;

/**
 * A policy expression that is not well-formed, or exceeds a {@link Limits parse limit}. It is the only exception
 * {@link PolicyExpression#parse} throws; the message reads like {@code expected ')' at column 34}.
 */
public final class PolicyParseException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final int column;
    private final String problem;

    PolicyParseException(String problem, int column) {
        super(problem + " at column " + column);
        this.problem = problem;
        this.column = column;
    }

    /** 1-based column (in UTF-16 units, which is characters for ASCII sources) where the problem was found. */
    public int column() {
        return column;
    }

    /** The problem without its position, e.g. {@code expected ')'}. */
    public String problem() {
        return problem;
    }
}
