package dev.keyhaven.policy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.math.BigInteger;
import java.util.Collections;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ParserTest {

    private static PolicyParseException parseError(String source) {
        return catchThrowableOfType(PolicyParseException.class, () -> PolicyExpression.parse(source));
    }

    @ParameterizedTest(name = "[{index}] {0}")
    @CsvSource(delimiterString = "¦", quoteCharacter = '`', textBlock = """
            activity.action == 'SIGN' && (wallet.id == 'x' ¦ 47 ¦ expected ')'
            ``                                     ¦  1 ¦ expected an expression
            `   `                                  ¦  4 ¦ expected an expression
            activity.type == "ACTIVITY_TYPE_SIGN_TRANSACTION_V2" ¦ 18 ¦ strings must use single quotes
            activity.type == 'SIGN                 ¦ 18 ¦ unterminated string
            'a\\nb' == 'x'                         ¦  3 ¦ unknown escape '\\n' (only \\' and \\\\ exist)
            'abc\\                                 ¦  1 ¦ unterminated string
            a = 1                                  ¦  3 ¦ expected '=='
            a & b                                  ¦  3 ¦ expected '&&'
            a | b                                  ¦  3 ¦ expected '||'
            a == -1                                ¦  6 ¦ unexpected character '-'
            a # b                                  ¦  3 ¦ unexpected character '#'
            a == 1 == true                         ¦  8 ¦ comparisons cannot be chained; use parentheses
            1 < 2 < 3                              ¦  7 ¦ comparisons cannot be chained; use parentheses
            a == 1 b                               ¦  8 ¦ unexpected 'b'
            a == 1 'b'                             ¦  8 ¦ unexpected string 'b'
            a == 1 2                               ¦  8 ¦ unexpected '2'
            a == 1 true                            ¦  8 ¦ unexpected 'true'
            a ==                                   ¦  5 ¦ expected an expression
            a == )                                 ¦  6 ¦ unexpected ')'
            approvers.any(user user.id == 'x')     ¦ 20 ¦ expected ','
            approvers.any('user', true)            ¦ 15 ¦ expected a variable name as the first argument of 'any'
            approvers.any(u, u.tags.all(u, true))  ¦ 29 ¦ variable 'u' is already bound by an enclosing predicate
            approvers.exists(u, true)              ¦ 11 ¦ unknown function 'exists'
            approvers.count(1)                     ¦ 17 ¦ expected ')'
            tags.contains()                        ¦ 15 ¦ unexpected ')'
            now() > 1                              ¦  1 ¦ unknown function 'now'
            Timestamp(1) > 1                       ¦ 11 ¦ expected a string literal argument
            Timestamp('2026-01-01T00:00:00Z', 'x') > 1 ¦  1 ¦ 'Timestamp' takes 1 argument, not 2
            CronSpan('0 9 * * *', '8h')            ¦  1 ¦ 'CronSpan' takes 3 arguments, not 2
            a.                                     ¦  3 ¦ expected a field or function name after '.'
            a.1                                    ¦  3 ¦ expected a field or function name after '.'
            x[1..]                                 ¦  6 ¦ unexpected ']'
            x[1                                    ¦  4 ¦ expected ']'
            [1, 2                                  ¦  6 ¦ expected ']'
            [1, ]                                  ¦  5 ¦ unexpected ']'
            a && in                                ¦  6 ¦ unexpected 'in'
            a é b                                  ¦  3 ¦ unexpected character U+00E9
            """)
    void rejectsMalformedSourcesNamingTheProblemAndColumn(String source, int column, String problem) {
        PolicyParseException error = parseError(source);
        assertThat(error).as(source).isNotNull();
        assertThat(error.problem()).isEqualTo(problem);
        assertThat(error.column()).isEqualTo(column);
        assertThat(error.getMessage()).isEqualTo(problem + " at column " + column);
    }

    @Test
    void messageReadsLikeTheServerWillPrefixIt() {
        assertThat(parseError("activity.action == 'SIGN' && (x").getMessage()).isEqualTo("expected ')' at column 32");
    }

    @Test
    void rejectsIntegerLiteralsWiderThan256Bits() {
        String tooLarge = IntValue.MAX.add(BigInteger.ONE).toString();
        assertThat(parseError("a == " + tooLarge).getMessage())
                .isEqualTo("integer literal is larger than 2^256 - 1 at column 6");
        assertThat(PolicyExpression.parse("a == " + IntValue.MAX)).isNotNull();
    }

    @Test
    void rejectsSourcesOverTheLengthLimit() {
        String longest = "'" + "a".repeat(Limits.MAX_SOURCE_LENGTH - 9) + "' == 'b'";
        assertThat(longest).hasSize(Limits.MAX_SOURCE_LENGTH);
        assertThat(PolicyExpression.parse(longest)).isNotNull();
        PolicyParseException error = parseError(longest + " ");
        assertThat(error.problem()).isEqualTo("expression is 4097 characters long; the limit is 4096");
        assertThat(error.column()).isEqualTo(4097);
    }

    @Test
    void rejectsNestingOverTheDepthLimitWithoutOverflowingTheStack() {
        int limit = Limits.MAX_NESTING_DEPTH;
        assertThat(PolicyExpression.parse("(".repeat(limit - 1) + "true" + ")".repeat(limit - 1)))
                .isNotNull();
        assertThat(parseError("(".repeat(limit) + "true" + ")".repeat(limit)).problem())
                .isEqualTo("expression nests deeper than 64 levels");
        assertThat(parseError("(".repeat(3_000)).problem()).isEqualTo("expression nests deeper than 64 levels");
        assertThat(parseError("!".repeat(3_000) + "true").problem())
                .isEqualTo("expression nests deeper than 64 levels");
        assertThat(parseError("[".repeat(3_000)).problem()).isEqualTo("expression nests deeper than 64 levels");
        assertThat(parseError("a" + ".b".repeat(1_000) + " == 1").problem())
                .isEqualTo("expression nests deeper than 64 levels");
        assertThat(parseError("a" + "[0]".repeat(1_000) + " == 1").problem())
                .isEqualTo("expression nests deeper than 64 levels");
    }

    @Test
    void longFlatChainsAreNotDeep() {
        String chain = String.join(" || ", Collections.nCopies(300, "a == 1"));
        assertThat(PolicyExpression.parse(chain).referencedKeywords()).containsExactly("a");
    }

    @Test
    void precedenceAndGroupingShowInTheCanonicalForm() {
        assertThat(printed("a || b && c")).isEqualTo("a || (b && c)");
        assertThat(printed("(a || b) && c")).isEqualTo("(a || b) && c");
        assertThat(printed("a && b && c || d")).isEqualTo("(a && b && c) || d");
        assertThat(printed("!a == b")).isEqualTo("!a == b");
        assertThat(printed("!(a == b)")).isEqualTo("!(a == b)");
        assertThat(printed("x in [1,2]&&y")).isEqualTo("(x in [1, 2]) && y");
        assertThat(printed("!a.b[0].c")).isEqualTo("!a.b[0].c");
        assertThat(printed("(a || b).c")).isEqualTo("(a || b).c");
    }

    @Test
    void referencedKeywordsAreTheFreeTopLevelNames() {
        assertThat(PolicyExpression.parse("activity.action == 'SIGN' && wallet.id == 'w'")
                        .referencedKeywords())
                .containsExactlyInAnyOrder("activity", "wallet");
        assertThat(PolicyExpression.parse("approvers.any(user, user.id == 'u')").referencedKeywords())
                .containsExactly("approvers");
        assertThat(PolicyExpression.parse("eth.tx.to == 'x' && eth.eip_712.domain.name == 'y'")
                        .referencedKeywords())
                .containsExactly("eth");
        assertThat(PolicyExpression.parse("CronSpan('0 9 * * 1-5', '8h', 'America/New_York')")
                        .referencedKeywords())
                .containsExactly("time");
        assertThat(PolicyExpression.parse("Timestamp('2026-01-01T00:00:00Z') < Timestamp('2027-01-01T00:00:00Z')")
                        .referencedKeywords())
                .isEmpty();
        assertThat(PolicyExpression.parse("approvers.any(u, u.id == 'x') && u.id == 'y'")
                        .referencedKeywords())
                .containsExactlyInAnyOrder("approvers", "u");
    }

    @Test
    void emptySourcesAreRejectedAndAlwaysTrueStandsInForThem() {
        assertThatThrownBy(() -> PolicyExpression.parse("")).isInstanceOf(PolicyParseException.class);
        assertThat(PolicyExpression.alwaysTrue().evaluate(Environment.empty()))
                .isEqualTo(EvaluationResult.Decided.TRUE);
        assertThat(PolicyExpression.alwaysTrue().referencedKeywords()).isEmpty();
    }

    @Test
    void keepsTheSourceAsGiven() {
        PolicyExpression expression = PolicyExpression.parse("  a==1 ");
        assertThat(expression.source()).isEqualTo("  a==1 ");
        assertThat(expression).hasToString("  a==1 ");
    }

    private static String printed(String source) {
        return Printer.print(PolicyExpression.parse(source).root());
    }
}
