package dev.keyhaven.policy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * Property: for any string, {@link PolicyExpression#parse} either returns or throws {@link PolicyParseException}
 * (with a column inside the source), and evaluating whatever parses returns a result without throwing. Inputs are
 * random characters, random token sequences, mutations of Turnkey's documented expressions, random well-formed
 * expressions (which must parse and print back to themselves), and pathological nesting. Seeds are fixed so a failure
 * reproduces; the failing input is in the assertion message.
 */
class PolicyFuzzTest {
    private static final int CASES_PER_GENERATOR = 4_000;

    private static final Environment SAMPLE = Environment.of(Map.of(
            "a", Value.of(1),
            "s", Value.of("0xa9059cbb00000000"),
            "tags", Value.strings(List.of("ops", "security", "dev")),
            "users",
                    Value.list(
                            Value.struct(Map.of("id", Value.of("u1"), "tags", Value.strings(List.of("ops")))),
                            Value.struct(Map.of("id", Value.of("u2"), "tags", Value.strings(List.of())))),
            "activity",
                    Value.struct(Map.of(
                            "type",
                            Value.of("ACTIVITY_TYPE_SIGN_TRANSACTION_V2"),
                            "action",
                            Value.of("SIGN"),
                            "params",
                            Value.struct(Map.of("user_ids", Value.strings(List.of("u1", "u2")))))),
            "eth",
                    Value.struct(Map.of(
                            "tx",
                            Value.struct(Map.of(
                                    "to",
                                    Value.of("0xabc"),
                                    "data",
                                    Value.of("0x"),
                                    "chain_id",
                                    Value.of(1),
                                    "value",
                                    Value.unreadable("unknown amount"),
                                    "function_name",
                                    Value.unreadable("no ABI"))))),
            "time", Value.struct(Map.of("now", Value.of(Instant.parse("2026-03-10T15:00:00Z"))))));

    private static final String CHARACTERS = "abcsuxy_.,()[]'\"\\!&|=<> \t\n0123456789-+*/#é😀\u0000\u202e";

    private static final List<String> TOKENS = List.of(
            "a",
            "s",
            "tags",
            "users",
            "u",
            "v",
            "activity",
            "eth",
            "time",
            "missing",
            "true",
            "false",
            "in",
            ".",
            "..",
            ",",
            "(",
            ")",
            "[",
            "]",
            "!",
            "&&",
            "||",
            "==",
            "!=",
            "<",
            ">",
            "<=",
            ">=",
            "0",
            "1",
            "2",
            "10",
            "115792089237316195423570985008687907853269984665640564039457584007913129639935",
            "'ops'",
            "'u1'",
            "''",
            "'\\''",
            ".id",
            ".tags",
            ".tx",
            ".data",
            ".now",
            ".type",
            ".count",
            ".count()",
            ".any(",
            ".all(",
            ".filter(",
            ".contains(",
            "u,",
            "v,",
            "Timestamp('2026-01-01T00:00:00Z')",
            "Timestamp('bad')",
            "CronSpan('0 9 * * 1-5', '8h', 'America/New_York')",
            "CronSpan('*/5 * * * *', '8h', 'UTC')");

    @Test
    void randomCharacters() {
        Random random = new Random(20260301L);
        check(random, r -> {
            StringBuilder source = new StringBuilder();
            int[] codePoints = CHARACTERS.codePoints().toArray();
            for (int i = r.nextInt(80); i > 0; i--) {
                source.appendCodePoint(codePoints[r.nextInt(codePoints.length)]);
            }
            return source.toString();
        });
    }

    @Test
    void randomTokenSequences() {
        Random random = new Random(42L);
        check(random, r -> {
            StringBuilder source = new StringBuilder();
            for (int i = 1 + r.nextInt(30); i > 0; i--) {
                source.append(TOKENS.get(r.nextInt(TOKENS.size()))).append(r.nextInt(4) == 0 ? "" : " ");
            }
            return source.toString();
        });
    }

    @Test
    void mutationsOfDocumentedExpressions() throws IOException {
        List<String> documented = documentedExpressions();
        Random random = new Random(7L);
        check(random, r -> {
            StringBuilder source = new StringBuilder(documented.get(r.nextInt(documented.size())));
            for (int i = 1 + r.nextInt(3); i > 0 && !source.isEmpty(); i--) {
                int at = r.nextInt(source.length());
                switch (r.nextInt(5)) {
                    case 0 -> source.deleteCharAt(at);
                    case 1 -> source.insert(at, TOKENS.get(r.nextInt(TOKENS.size())));
                    case 2 -> source.insert(at, CHARACTERS.charAt(r.nextInt(CHARACTERS.length())));
                    case 3 -> source.setLength(at);
                    default -> source.insert(at, source, at, Math.min(source.length(), at + 1 + r.nextInt(20)));
                }
            }
            return source.toString();
        });
    }

    @Test
    void wellFormedExpressionsParseAndPrintBackToThemselves() {
        Random random = new Random(99L);
        for (int i = 0; i < CASES_PER_GENERATOR; i++) {
            String source = new RandomExpressions(random).bool(6);
            PolicyExpression expression = parseAndEvaluate(source);
            assertThat(expression).as(source).isNotNull();
            String canonical = Printer.print(expression.root());
            assertThat(Printer.print(PolicyExpression.parse(canonical).root()))
                    .as(source)
                    .isEqualTo(canonical);
        }
    }

    @Test
    void pathologicalNesting() {
        for (String unit : List.of("(", "[", "!", "a.any(x,", "[a][", "a[", "-", "'", "\\", "(((a)))==")) {
            check(unit.repeat(10_000));
            check(unit.repeat(10_000) + "true" + ")".repeat(10_000));
        }
        check("a" + ".b".repeat(2_000));
        check("a" + "[0]".repeat(1_300));
        check("true" + " && true".repeat(500));
        check("x".repeat(Limits.MAX_SOURCE_LENGTH));
        check("x".repeat(Limits.MAX_SOURCE_LENGTH + 1));
        check("'" + "\\'".repeat(2_000) + "'");
    }

    private static void check(Random random, Function<Random, String> generator) {
        for (int i = 0; i < CASES_PER_GENERATOR; i++) {
            check(generator.apply(random));
        }
    }

    private static void check(String source) {
        parseAndEvaluate(source);
    }

    /** The parsed expression, or null if the source was rejected properly. */
    private static PolicyExpression parseAndEvaluate(String source) {
        PolicyExpression expression;
        try {
            expression = PolicyExpression.parse(source);
        } catch (PolicyParseException e) {
            assertThat(e.column()).as(source).isBetween(1, source.length() + 1);
            assertThat(e.getMessage()).as(source).isEqualTo(e.problem() + " at column " + e.column());
            return null;
        } catch (Throwable t) {
            throw new AssertionError("parse threw " + t + " for: " + abbreviate(source), t);
        }
        try {
            EvaluationResult result = expression.evaluate(SAMPLE);
            if (result instanceof EvaluationError error) {
                assertThat(error.column()).as(source).isBetween(1, source.length());
            }
            assertThat(result).as(source).isNotNull();
        } catch (AssertionError e) {
            throw e;
        } catch (Throwable t) {
            fail("evaluate threw " + t + " for: " + abbreviate(source), t);
        }
        return expression;
    }

    private static String abbreviate(String source) {
        return source.length() <= 300 ? source : source.substring(0, 300) + "… (" + source.length() + " chars)";
    }

    private static List<String> documentedExpressions() throws IOException {
        try (InputStream in = PolicyFuzzTest.class.getResourceAsStream("/turnkey-docs-expressions.txt")) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().toList();
        }
    }
}
