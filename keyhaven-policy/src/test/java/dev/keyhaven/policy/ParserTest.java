package dev.keyhaven.policy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

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
            activity.action == 'SIGN' && (wallet.id == 'x'        ¦ expected ')'                                            ¦ 47
            ``                                                    ¦ expected an expression                                  ¦ 1
            `   `                                                 ¦ expected an expression                                  ¦ 4
            activity.type == "ACTIVITY_TYPE_SIGN_TRANSACTION_V2"  ¦ strings must use single quotes                          ¦ 18
            activity.type == 'SIGN                                ¦ unterminated string                                     ¦ 18
            'a\\nb' == 'x'                                        ¦ unknown escape '\\n' (only \\' and \\\\ exist)          ¦ 3
            'abc\\                                                ¦ unterminated string                                     ¦ 1
            a = 1                                                 ¦ expected '=='                                           ¦ 3
            a & b                                                 ¦ expected '&&'                                           ¦ 3
            a | b                                                 ¦ expected '||'                                           ¦ 3
            a == -1                                               ¦ unexpected character '-'                                ¦ 6
            a # b                                                 ¦ unexpected character '#'                                ¦ 3
            a == 1 == true                                        ¦ comparisons cannot be chained; use parentheses          ¦ 8
            1 < 2 < 3                                             ¦ comparisons cannot be chained; use parentheses          ¦ 7
            a == 1 b                                              ¦ unexpected 'b'                                          ¦ 8
            a ==                                                  ¦ expected an expression                                  ¦ 5
            a == )                                                ¦ unexpected ')'                                          ¦ 6
            approvers.any(user user.id == 'x')                    ¦ expected ','                                            ¦ 20
            approvers.any('user', true)                           ¦ expected a variable name as the first argument of 'any' ¦ 15
            approvers.any(u, u.tags.all(u, true))                 ¦ variable 'u' is already bound by an enclosing predicate ¦ 29
            approvers.exists(u, true)                             ¦ unknown function 'exists'                               ¦ 11
            approvers.count(1)                                    ¦ expected ')'                                            ¦ 17
            tags.contains()                                       ¦ unexpected ')'                                          ¦ 15
            now() > 1                                             ¦ unknown function 'now'                                  ¦ 1
            Timestamp(1) > 1                                      ¦ expected a string literal argument                      ¦ 11
            Timestamp('2026-01-01T00:00:00Z', 'x') > 1            ¦ 'Timestamp' takes 1 argument, not 2                     ¦ 1
            CronSpan('0 9 * * *', '8h')                           ¦ 'CronSpan' takes 3 arguments, not 2                     ¦ 1
            a.                                                    ¦ expected a field or function name after '.'             ¦ 3
            a.1                                                   ¦ expected a field or function name after '.'             ¦ 3
            x[1..]                                                ¦ unexpected ']'                                          ¦ 6
            x[1                                                   ¦ expected ']'                                            ¦ 4
            [1, 2                                                 ¦ expected ']'                                            ¦ 6
            [1, ]                                                 ¦ unexpected ']'                                          ¦ 5
            a == 115792089237316195423570985008687907853269984665640564039457584007913129639936 ¦ integer literal is larger than 2^256 - 1                ¦ 6
            a && in                                               ¦ unexpected 'in'                                         ¦ 6
            a é b                                                 ¦ unexpected character U+00E9                             ¦ 3
            """)
    void rejectsMalformedSourcesNamingTheProblemAndColumn(String source, String problem, int column) {
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
        assertThat(PolicyExpression.parse("(".repeat(limit - 1) + "true" + ")".repeat(limit - 1))).isNotNull();
        assertThat(parseError("(".repeat(limit) + "true" + ")".repeat(limit)).problem())
                .isEqualTo("expression nests deeper than 64 levels");
        assertThat(parseError("(".repeat(3_000)).problem()).isEqualTo("expression nests deeper than 64 levels");
        assertThat(parseError("!".repeat(3_000) + "true").problem()).isEqualTo("expression nests deeper than 64 levels");
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
        assertThat(PolicyExpression.parse("activity.action == 'SIGN' && wallet.id == 'w'").referencedKeywords())
                .containsExactlyInAnyOrder("activity", "wallet");
        assertThat(PolicyExpression.parse("approvers.any(user, user.id == 'u')").referencedKeywords())
                .containsExactly("approvers");
        assertThat(PolicyExpression.parse("eth.tx.to == 'x' && eth.eip_712.domain.name == 'y'").referencedKeywords())
                .containsExactly("eth");
        assertThat(PolicyExpression.parse("CronSpan('0 9 * * 1-5', '8h', 'America/New_York')").referencedKeywords())
                .containsExactly("time");
        assertThat(PolicyExpression.parse("Timestamp('2026-01-01T00:00:00Z') < Timestamp('2027-01-01T00:00:00Z')")
                .referencedKeywords()).isEmpty();
        assertThat(PolicyExpression.parse("approvers.any(u, u.id == 'x') && u.id == 'y'").referencedKeywords())
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
