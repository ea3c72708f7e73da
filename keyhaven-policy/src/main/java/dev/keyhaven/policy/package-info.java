/**
 * Turnkey's policy language: the {@code consensus}, {@code condition} and {@code time} expressions of a policy.
 * {@link dev.keyhaven.policy.PolicyExpression#parse} compiles a source (lexer, Pratt parser, sealed syntax tree) and
 * {@link dev.keyhaven.policy.PolicyExpression#evaluate} evaluates it against an
 * {@link dev.keyhaven.policy.Environment} of {@link dev.keyhaven.policy.Value}s, giving a boolean or an
 * {@link dev.keyhaven.policy.EvaluationError}. Pure computation: no I/O, no dependencies beyond the JDK, no clock
 * (the caller supplies {@code time.now}). The bounds that make any input safe are in
 * {@link dev.keyhaven.policy.Limits}.
 */
package dev.keyhaven.policy;
