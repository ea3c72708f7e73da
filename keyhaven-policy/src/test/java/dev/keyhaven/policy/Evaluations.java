package dev.keyhaven.policy;

import static org.assertj.core.api.Assertions.assertThat;

/** Assertions on evaluating a source against an environment, for the tests of this package. */
final class Evaluations {
    private Evaluations() {}

    static EvaluationResult evaluate(String source, Environment environment) {
        return PolicyExpression.parse(source).evaluate(environment);
    }

    static void assertHolds(String source, Environment environment) {
        assertThat(evaluate(source, environment)).as(source).isEqualTo(EvaluationResult.Decided.TRUE);
    }

    static void assertFails(String source, Environment environment) {
        assertThat(evaluate(source, environment)).as(source).isEqualTo(EvaluationResult.Decided.FALSE);
    }

    static EvaluationError assertError(String source, Environment environment, EvaluationError.Kind kind) {
        EvaluationResult result = evaluate(source, environment);
        assertThat(result).as(source).isInstanceOf(EvaluationError.class);
        EvaluationError error = (EvaluationError) result;
        assertThat(error.kind()).as(source + " → " + error).isEqualTo(kind);
        return error;
    }

    static void assertError(String source, Environment environment, EvaluationError.Kind kind, String message) {
        assertThat(assertError(source, environment, kind).message()).as(source).isEqualTo(message);
    }
}
