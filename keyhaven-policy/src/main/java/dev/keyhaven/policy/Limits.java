package dev.keyhaven.policy;

/**
 * The bounds that keep a hostile or careless expression from hanging or crashing the server. Turnkey documents none
 * of these; they are far above what real policies need (the longest documented example is under 600 characters, the
 * deepest uses 11 levels of nesting).
 */
public final class Limits {
    /** Longest accepted source, in characters. */
    public static final int MAX_SOURCE_LENGTH = 4_096;

    /**
     * Deepest accepted nesting: parentheses, operands, call arguments, list elements and each link of an access chain
     * ({@code a.b[0].c} is 3 deep) count one level. It bounds the recursion of the parser and of the evaluator to a
     * few hundred frames, so neither can overflow a thread's stack.
     */
    public static final int MAX_NESTING_DEPTH = 64;

    /**
     * Most work one evaluation may do. A step is one visited node, one list element a built-in examines or copies,
     * or 64 characters of a string that is compared or sliced; nested {@code all}/{@code any}/{@code filter} multiply.
     * Evaluating this many steps takes well under a millisecond.
     */
    public static final int MAX_EVALUATION_STEPS = 50_000;

    private Limits() {}
}
