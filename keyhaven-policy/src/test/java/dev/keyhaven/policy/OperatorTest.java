package dev.keyhaven.policy;

import static dev.keyhaven.policy.EvaluationError.Kind.INDEX_OUT_OF_RANGE;
import static dev.keyhaven.policy.EvaluationError.Kind.MISSING_FIELD;
import static dev.keyhaven.policy.EvaluationError.Kind.NOT_BOOLEAN;
import static dev.keyhaven.policy.EvaluationError.Kind.TYPE_MISMATCH;
import static dev.keyhaven.policy.Evaluations.assertError;
import static dev.keyhaven.policy.Evaluations.assertFails;
import static dev.keyhaven.policy.Evaluations.assertHolds;
import static dev.keyhaven.policy.Evaluations.evaluate;
import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigInteger;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class OperatorTest {
    private static final Environment ENV = Environment.of(Map.of(
            "n", Value.of(7),
            "s", Value.of("0xa9059cbb000000"),
            "tags", Value.strings(List.of("ops", "security")),
            "users", Value.list(user("u1", "ops"), user("u2", "ops", "security"), user("u3")),
            "tx",
                    Value.struct(Map.of(
                            "value", Value.of(new BigInteger("1000000000000000000001")),
                            "args",
                                    Value.struct(Map.of(
                                            "to",
                                            Value.of("0xabc"),
                                            "calls",
                                            Value.list(Value.list(Value.of("0xc0ffee"), Value.of(0))))))),
            "time", Value.struct(Map.of("now", Value.of(Instant.parse("2026-03-15T12:00:00Z"))))));

    private static Value user(String id, String... tags) {
        return Value.struct(Map.of("id", Value.of(id), "tags", Value.strings(List.of(tags))));
    }

    @Test
    void literalsAndLogic() {
        assertHolds("true", ENV);
        assertFails("false", ENV);
        assertHolds("true && true", ENV);
        assertFails("true && false", ENV);
        assertHolds("false || true", ENV);
        assertFails("false || false", ENV);
        assertHolds("!false", ENV);
        assertFails("!true", ENV);
        assertHolds("!!true", ENV);
        assertHolds("true || false && false", ENV); // && binds tighter
        assertFails("(true || false) && false", ENV);
        assertHolds("!(1 == 2)", ENV);
        assertHolds("true && true && true && true", ENV);
        assertFails("true && true && false && true", ENV);
    }

    @Test
    void logicNeedsBools() {
        assertError("1 && true", ENV, TYPE_MISMATCH, "'&&' needs bool operands, not an int");
        assertError("true || 's'", ENV, TYPE_MISMATCH, "'||' needs bool operands, not a string");
        assertError("!tags", ENV, TYPE_MISMATCH, "'!' needs bool operands, not a list");
    }

    @Test
    void noShortCircuitHidesAnError() {
        assertError("true || missing.id == 'x'", ENV, MISSING_FIELD, "missing keyword 'missing'");
        assertError("false && missing.id == 'x'", ENV, MISSING_FIELD);
        assertError("missing.id == 'x' || true", ENV, MISSING_FIELD);
        assertError("users.any(u, u.id == 'u1' || u.alias == 'x')", ENV, MISSING_FIELD, "missing field 'alias' on 'u'");
        assertError("false && 1", ENV, TYPE_MISMATCH);
        assertError("users.all(u, u.id == 'nobody') && users.any(u, u.tags[0] == 'ops')", ENV, INDEX_OUT_OF_RANGE);
    }

    @Test
    void integerComparisons() {
        assertHolds("1 < 2", ENV);
        assertFails("2 < 2", ENV);
        assertHolds("2 <= 2", ENV);
        assertHolds("3 > 2", ENV);
        assertFails("2 > 3", ENV);
        assertHolds("3 >= 3", ENV);
        assertHolds("n == 7", ENV);
        assertHolds("n != 8", ENV);
        assertFails("n != 7", ENV);
    }

    @Test
    void integersAre256BitWide() {
        assertHolds("tx.value > 1000000000000000000000", ENV);
        assertFails("tx.value > 1000000000000000000001", ENV);
        assertHolds("tx.value == 1000000000000000000001", ENV);
        String max = IntValue.MAX.toString();
        assertHolds(max + " == " + max, ENV);
        assertHolds("170141183460469231731687303715884105728 > 170141183460469231731687303715884105727", ENV);
        assertHolds(max + " > 0", ENV);
        Environment negative = Environment.of(Map.of("i", Value.of(IntValue.MIN)));
        assertHolds("i < 0", negative);
        assertThat(Value.of(-5)).isEqualTo(new IntValue(BigInteger.valueOf(-5)));
    }

    @Test
    void stringComparisons() {
        assertHolds("'a' == 'a'", ENV);
        assertHolds("'a' != 'b'", ENV);
        assertFails("'a' == 'A'", ENV);
        assertError("'a' < 'b'", ENV, TYPE_MISMATCH, "cannot compare string < string");
    }

    @Test
    void hexComparesInAnyLetterCaseAndNothingElseDoes() {
        assertHolds(
                "'0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2' == " + "'0xc02aaa39b223fe8d0a0e5c4f27ead9083c756cc2'",
                ENV);
        assertHolds("'0XA9059CBB' == '0xa9059cbb'", ENV);
        assertHolds("s[0..10] == '0xA9059CBB'", ENV);
        assertHolds("'0xABC' in ['0x1', '0xabc']", ENV);
        assertFails("'0xabc' != '0xABC'", ENV);
        assertFails("'0xabc' == '0xabd'", ENV);
        assertFails("'0xabc' == '0xabc0'", ENV);
        // Base58 and bare hex are case-sensitive: letter case is part of a Solana or Tron address.
        assertFails("'abc' == 'ABC'", ENV);
        assertFails("'0xabg' == '0xABG'", ENV);
        assertFails("'TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf' == 'txyzopyrdj2d9xrtbg411xzz3km5vkaebf'", ENV);
    }

    @Test
    void stringEscapes() {
        Environment quotes = Environment.of(Map.of("name", Value.of("O'Brien \\ co")));
        assertHolds("name == 'O\\'Brien \\\\ co'", quotes);
        assertHolds("'\\'' == name[1]", quotes);
        assertHolds("'\\\\'[0..1] == '\\\\'", quotes);
    }

    @Test
    void comparingDifferentTypesIsAnError() {
        assertError("1 == '1'", ENV, TYPE_MISMATCH, "cannot compare int == string");
        assertError("true != 0", ENV, TYPE_MISMATCH, "cannot compare bool != int");
        assertError("n < '8'", ENV, TYPE_MISMATCH, "cannot compare int < string");
        assertError("tags == 'ops'", ENV, TYPE_MISMATCH, "cannot compare list == string");
        assertError("true < false", ENV, TYPE_MISMATCH, "cannot compare bool < bool");
        assertError("tags < tags", ENV, TYPE_MISMATCH);
    }

    @Test
    void listsAndStructsCompareByContent() {
        assertHolds("[1, 2] == [1, 2]", ENV);
        assertFails("[1, 2] == [2, 1]", ENV);
        assertFails("[1, 2] == [1, 2, 3]", ENV);
        assertHolds("[] == []", ENV);
        assertHolds("tags == ['ops', 'security']", ENV);
        assertHolds("users[0] == users[0]", ENV);
        assertFails("users[0] == users[1]", ENV);
        assertFails("users[0] == tx.args", ENV); // different field names
        assertError("[1] == ['1']", ENV, TYPE_MISMATCH, "cannot compare int == string");
        assertHolds("[[1, 'a'], [2]] == [[1, 'a'], [2]]", ENV);
    }

    @Test
    void inAndContains() {
        assertHolds("'ops' in tags", ENV);
        assertFails("'dev' in tags", ENV);
        assertHolds("2 in [1, 2, 3]", ENV);
        assertFails("4 in [1, 2, 3]", ENV);
        assertFails("1 in []", ENV);
        assertHolds("tags.contains('security')", ENV);
        assertFails("tags.contains('dev')", ENV);
        assertHolds("[[1, 2], [3]].contains([3])", ENV);
        assertError("'ops' in 'ops,security'", ENV, TYPE_MISMATCH, "'in' needs a list on its right, not a string");
        assertError("s.contains('a9')", ENV, TYPE_MISMATCH, "'contains' needs a list, not a string");
        assertError("1 in ['1']", ENV, TYPE_MISMATCH, "cannot compare int == string");
        // Every element is compared: a wrong-typed element after the match is still reported.
        assertError("1 in [1, 'x']", ENV, TYPE_MISMATCH);
        assertHolds("!('dev' in tags)", ENV);
    }

    @Test
    void fieldAndMapAccess() {
        assertHolds("tx.args.to == '0xabc'", ENV);
        assertHolds("tx.args['to'] == '0xabc'", ENV);
        assertHolds("tx['args']['calls'][0][0] == '0xc0ffee' && tx.args.calls[0][1] == 0", ENV);
        assertError("tx.args.from == '0x0'", ENV, MISSING_FIELD, "missing field 'from' on 'tx.args'");
        assertError("tx.args['from'] == '0x0'", ENV, MISSING_FIELD, "missing field 'from' on 'tx.args'");
        assertError("tx.args[0] == '0x0'", ENV, TYPE_MISMATCH, "a struct is indexed by a string, not an int");
        assertError("n.id == 1", ENV, TYPE_MISMATCH, "cannot read field 'id' of 'n', an int");
        assertError("tags.first == 'ops'", ENV, TYPE_MISMATCH, "cannot read field 'first' of 'tags', a list");
        assertError("nobody == 1", ENV, MISSING_FIELD, "missing keyword 'nobody'");
    }

    @Test
    void indexing() {
        assertHolds("tags[0] == 'ops'", ENV);
        assertHolds("tags[1] == 'security'", ENV);
        assertHolds("s[1] == 'x'", ENV);
        assertHolds("[10, 20, 30][2] == 30", ENV);
        assertError("tags[2] == 'x'", ENV, INDEX_OUT_OF_RANGE, "index 2 is out of range for 'tags' of length 2");
        assertError("s[16] == 'x'", ENV, INDEX_OUT_OF_RANGE, "index 16 is out of range for 's' of length 16");
        assertError("tags['0'] == 'ops'", ENV, TYPE_MISMATCH, "an index must be an int, not a string");
        assertError("n[0] == 1", ENV, TYPE_MISMATCH, "cannot index 'n', an int");
        assertError("tags[" + IntValue.MAX + "] == 'x'", ENV, INDEX_OUT_OF_RANGE);
    }

    @Test
    void slicing() {
        assertHolds("s[0..10] == '0xa9059cbb'", ENV);
        assertHolds("s[0..0] == ''", ENV);
        assertHolds("s[16..16] == ''", ENV);
        assertHolds("s[10..16] == '000000'", ENV);
        assertHolds("tags[0..1] == ['ops']", ENV);
        assertHolds("tags[1..2] == ['security']", ENV);
        assertHolds("tags[2..2] == []", ENV);
        assertHolds("[1, 2, 3][1..3] == [2, 3]", ENV);
        assertError("s[0..17] == ''", ENV, INDEX_OUT_OF_RANGE, "slice [0..17] is out of range for 's' of length 16");
        assertError("s[5..4] == ''", ENV, INDEX_OUT_OF_RANGE, "slice [5..4] is out of range for 's' of length 16");
        assertError("tags[0..3] == []", ENV, INDEX_OUT_OF_RANGE, "slice [0..3] is out of range for 'tags' of length 2");
        assertError("tags[2..1] == []", ENV, INDEX_OUT_OF_RANGE);
        assertError("n[0..1] == 1", ENV, TYPE_MISMATCH, "cannot slice 'n', an int");
        assertError("s[0..'2'] == ''", ENV, TYPE_MISMATCH, "an index must be an int, not a string");
    }

    @Test
    void stringsAreIndexedByCodePoint() {
        Environment unicode = Environment.of(Map.of("t", Value.of("a😀b")));
        assertHolds("t[1] == '😀'", unicode);
        assertHolds("t[2] == 'b'", unicode);
        assertHolds("t[1..3] == '😀b'", unicode);
        assertError("t[3] == ''", unicode, INDEX_OUT_OF_RANGE, "index 3 is out of range for 't' of length 3");
    }

    @Test
    void countWithAndWithoutParentheses() {
        assertHolds("tags.count() == 2", ENV);
        assertHolds("tags.count == 2", ENV);
        assertHolds("[].count() == 0", ENV);
        assertHolds("users.count >= 3", ENV);
        assertError("s.count() == 16", ENV, TYPE_MISMATCH, "'count' needs a list, not a string");
        // On a struct, .count is an ordinary field.
        Environment struct = Environment.of(Map.of("stats", Value.struct(Map.of("count", Value.of(5)))));
        assertHolds("stats.count == 5", struct);
        assertError("stats.count() == 5", struct, TYPE_MISMATCH, "'count' needs a list, not a struct");
    }

    @Test
    void anyAllFilter() {
        assertHolds("users.any(u, u.id == 'u2')", ENV);
        assertFails("users.any(u, u.id == 'u9')", ENV);
        assertHolds("users.all(u, u.id != '')", ENV);
        assertFails("users.all(u, u.tags.contains('ops'))", ENV);
        assertFails("[].any(x, true)", ENV);
        assertHolds("[].all(x, false)", ENV);
        assertHolds("users.filter(u, u.tags.contains('ops')).count() == 2", ENV);
        assertHolds("users.filter(u, u.tags.contains('ops')).count == 2", ENV);
        assertHolds("users.filter(u, 'security' in u.tags)[0].id == 'u2'", ENV);
        assertHolds("[1, 2, 3, 4].filter(x, x > 2) == [3, 4]", ENV);
        assertHolds("[].filter(x, true) == []", ENV);
    }

    @Test
    void nestedPredicates() {
        assertHolds("users.any(u, u.tags.any(t, t == 'security'))", ENV);
        assertFails("users.all(u, u.tags.any(t, t == 'ops'))", ENV);
        assertHolds("users.all(u, u.tags.all(t, t in tags))", ENV);
        assertFails("users.any(u, users.any(v, v.id != u.id && v.tags == u.tags))", ENV);
        assertHolds("users.any(u, users.any(v, v.id != u.id && 'ops' in v.tags && 'ops' in u.tags))", ENV);
        // u3 has no tags: every pair is evaluated, so its empty list is indexed and the whole expression errs.
        assertError("users.any(u, users.any(v, v.tags[0] == u.tags[0]))", ENV, INDEX_OUT_OF_RANGE);
        assertHolds("[[1, 2], [3]].all(l, l.any(x, x > 0))", ENV);
    }

    @Test
    void predicateErrors() {
        assertError(
                "users.any(u, u.id)", ENV, TYPE_MISMATCH, "the predicate of 'any' evaluates to a string, not a bool");
        assertError("n.all(x, true)", ENV, TYPE_MISMATCH, "'all' needs a list, not an int");
        assertError("s.filter(c, true).count() == 0", ENV, TYPE_MISMATCH, "'filter' needs a list, not a string");
    }

    @Test
    void predicateVariableHidesAKeywordOfTheSameNameOnlyInsideThePredicate() {
        Environment wallets = Environment.of(Map.of(
                "wallets",
                        Value.list(
                                Value.struct(Map.of("id", Value.of("w1"))), Value.struct(Map.of("id", Value.of("w2")))),
                "wallet", Value.struct(Map.of("id", Value.of("w9")))));
        assertHolds("wallets.any(wallet, wallet.id == 'w2') && wallet.id == 'w9'", wallets);
        assertFails("wallets.any(wallet, wallet.id == 'w9')", wallets);
    }

    @Test
    void timestamps() {
        assertHolds(
                "time.now >= Timestamp('2026-03-01T00:00:00Z') && time.now < Timestamp('2026-04-01T00:00:00Z')", ENV);
        assertFails("time.now < Timestamp('2026-03-15T12:00:00Z')", ENV);
        assertHolds("time.now == Timestamp('2026-03-15T12:00:00Z')", ENV);
        assertHolds("time.now == Timestamp('2026-03-15t12:00:00.000+00:00')", ENV);
        assertHolds("time.now <= Timestamp('2026-03-15T12:00:00Z')", ENV);
        assertHolds("time.now > Timestamp('2026-03-15T11:59:59.999999999z')", ENV);
        assertHolds("(time.now != Timestamp('2026-03-15T12:00:00-00:00')) == false", ENV);
        assertError("time.now > 0", ENV, TYPE_MISMATCH, "cannot compare timestamp > int");
        assertError("time.now > '2026-01-01T00:00:00Z'", ENV, TYPE_MISMATCH);
    }

    @Test
    void invalidTimeArgumentsAreEvaluationErrors() {
        assertError(
                "time.now > Timestamp('2026-03-01T00:00:00-05:00')",
                ENV,
                EvaluationError.Kind.INVALID_ARGUMENT,
                "invalid Timestamp('2026-03-01T00:00:00-05:00'): '2026-03-01T00:00:00-05:00' has offset -05:00;"
                        + " timestamps must be in UTC (Z or +00:00)");
        assertError("time.now > Timestamp('2026-02-30T00:00:00Z')", ENV, EvaluationError.Kind.INVALID_ARGUMENT);
        assertError("time.now > Timestamp('yesterday')", ENV, EvaluationError.Kind.INVALID_ARGUMENT);
        // An invalid argument is an error even on the side of || that does not decide.
        assertError("true || time.now > Timestamp('2026-03-01')", ENV, EvaluationError.Kind.INVALID_ARGUMENT);
    }

    @Test
    void cronSpanIsABoolReadingTimeNow() {
        // ENV's time.now is Sunday 2026-03-15 12:00 UTC.
        assertHolds("CronSpan('0 12 * * *', '1h', 'UTC')", ENV);
        assertHolds("CronSpan('0 8 * * 0', '4h1m', 'America/New_York')", ENV); // 08:00 EDT = 12:00Z
        assertFails("CronSpan('0 9 * * 1-5', '8h', 'America/New_York')", ENV);
        assertHolds("!CronSpan('0 9 * * 1-5', '8h', 'UTC') && time.now < Timestamp('2027-01-01T00:00:00Z')", ENV);
        assertHolds("CronSpan('0 9 * * 1-5', '8h', 'UTC') || CronSpan('0 0 * * 0,6', '1d', 'UTC')", ENV);
        assertError(
                "CronSpan('0 12 * * *', '1h', 'UTC')", Environment.empty(), MISSING_FIELD, "missing keyword 'time'");
        assertError(
                "CronSpan('0 12 * * *', '1h', 'UTC')",
                Environment.of(Map.of("time", Value.struct(Map.of("now", Value.of("noon"))))),
                TYPE_MISMATCH,
                "'time.now' is not a timestamp");
    }

    @Test
    void invalidCronSpanArgumentsAreEvaluationErrors() {
        assertError(
                "CronSpan('*/15 9-17 * * 1-5', '15m', 'UTC')",
                ENV,
                EvaluationError.Kind.INVALID_ARGUMENT,
                "invalid CronSpan('*/15 9-17 * * 1-5', '15m', 'UTC'): minute field '*/15': step values are not"
                        + " supported");
        assertError(
                "CronSpan('0 9 * * 1-5', '8d', 'UTC')",
                ENV,
                EvaluationError.Kind.INVALID_ARGUMENT,
                "invalid CronSpan('0 9 * * 1-5', '8d', 'UTC'): duration '8d' is longer than 7 days");
        assertError(
                "CronSpan('0 9 * * 1-5', '8h', 'Eastern')",
                ENV,
                EvaluationError.Kind.INVALID_ARGUMENT,
                "invalid CronSpan('0 9 * * 1-5', '8h', 'Eastern'): 'Eastern' is not an IANA time zone name like"
                        + " America/New_York");
        assertError(
                "CronSpan('0 9 * * 1-5', '8h', 'UTC') || CronSpan('0 9 * * 7', '8h', 'UTC')",
                ENV,
                EvaluationError.Kind.INVALID_ARGUMENT);
    }

    @Test
    void theWholeExpressionMustBeABool() {
        assertError("n", ENV, NOT_BOOLEAN, "the expression evaluates to an int, not a bool");
        assertError("tags.filter(t, true)", ENV, NOT_BOOLEAN, "the expression evaluates to a list, not a bool");
        assertError("'true'", ENV, NOT_BOOLEAN);
    }

    @Test
    void errorsCarryTheColumnOfTheFailingPart() {
        EvaluationResult result = evaluate(
                "activity.kind == 'X' && wallet.id == 'w'",
                Environment.of(Map.of(
                        "activity", Value.struct(Map.of("kind", Value.of("X"))), "wallet", Value.struct(Map.of()))));
        assertThat(result).isEqualTo(new EvaluationError(MISSING_FIELD, "missing field 'id' on 'wallet'", 32));
    }
}
