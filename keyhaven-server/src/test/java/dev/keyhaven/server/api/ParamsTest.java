package dev.keyhaven.server.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.ObjectMapper;

class ParamsTest {
    private static final ObjectMapper JSON = JsonMappers.strict();

    private static Params params(String json) {
        return Params.of(JSON.readTree(json), "parameters");
    }

    private static void assertBad(Runnable read, String field, String problem) {
        assertThatThrownBy(read::run).isInstanceOfSatisfying(ApiException.class, e -> {
            assertThat(e.code()).isEqualTo(ErrorCode.BAD_REQUEST);
            assertThat(e.field()).contains(field);
            assertThat(e.getMessage()).contains(field).contains(problem);
        });
    }

    @Test
    void requiredStringsMustBePresentNonEmptyStrings() {
        assertThat(params("{\"a\":\"x\"}").requiredString("a")).isEqualTo("x");
        assertBad(() -> params("{}").requiredString("a"), "parameters.a", "is required");
        assertBad(() -> params("{\"a\":null}").requiredString("a"), "parameters.a", "is required");
        assertBad(() -> params("{\"a\":1}").requiredString("a"), "parameters.a", "must be a string");
        assertBad(() -> params("{\"a\":\"\"}").requiredString("a"), "parameters.a", "must not be empty");
    }

    @Test
    void optionalStringsTreatAbsentNullAndEmptyAlike() {
        assertThat(params("{}").optionalString("a")).isEmpty();
        assertThat(params("{\"a\":null}").optionalString("a")).isEmpty();
        assertThat(params("{\"a\":\"\"}").optionalString("a")).isEmpty();
        assertThat(params("{\"a\":\"v\"}").optionalString("a")).contains("v");
        assertBad(() -> params("{\"a\":[]}").optionalString("a"), "parameters.a", "must be a string");
    }

    @Test
    void int32AcceptsNumbersAndDigitStrings() {
        assertThat(params("{\"n\":3}").requiredInt("n")).isEqualTo(3);
        assertThat(params("{\"n\":\"3\"}").requiredInt("n")).isEqualTo(3);
        assertBad(() -> params("{\"n\":1.5}").requiredInt("n"), "parameters.n", "32-bit integer");
        assertBad(() -> params("{\"n\":\"9999999999\"}").requiredInt("n"), "parameters.n", "32-bit integer");
        assertBad(() -> params("{\"n\":true}").requiredInt("n"), "parameters.n", "32-bit integer");
    }

    @Test
    void uint64AcceptsDigitStringsWithinRange() {
        assertThat(params("{\"t\":\"1700000000000\"}").optionalUint64("t")).contains(1_700_000_000_000L);
        assertThat(params("{\"t\":42}").optionalUint64("t")).contains(42L);
        assertThat(params("{}").optionalUint64("t")).isEmpty();
        assertBad(() -> params("{\"t\":\"-1\"}").optionalUint64("t"), "parameters.t", "non-negative integer");
        assertBad(() -> params("{\"t\":\"12a\"}").optionalUint64("t"), "parameters.t", "non-negative integer");
        assertBad(() -> params("{\"t\":\"99999999999999999999\"}").optionalUint64("t"), "parameters.t", "");
        assertBad(() -> params("{\"t\":1.5}").optionalUint64("t"), "parameters.t", "integer");
    }

    @Test
    void enumsNameTheAllowedValues() {
        assertThat(params("{\"s\":\"VOTE_SELECTION_APPROVED\"}").requiredEnum("s", TestSelection.class))
                .isEqualTo(TestSelection.APPROVED);
        assertBad(
                () -> params("{\"s\":\"APPROVED\"}").requiredEnum("s", TestSelection.class),
                "parameters.s",
                "unknown value 'APPROVED' (expected one of VOTE_SELECTION_APPROVED, VOTE_SELECTION_REJECTED)");
    }

    @Test
    void arraysAreRequiredButNullMeansEmpty() {
        assertThat(params("{\"l\":[\"a\",\"b\"]}").requiredStrings("l")).containsExactly("a", "b");
        assertThat(params("{\"l\":null}").requiredStrings("l")).isEmpty();
        assertBad(() -> params("{}").requiredStrings("l"), "parameters.l", "is required");
        assertBad(() -> params("{\"l\":\"a\"}").requiredStrings("l"), "parameters.l", "must be an array");
        assertBad(() -> params("{\"l\":[\"a\",3]}").requiredStrings("l"), "parameters.l[1]", "non-empty string");
        assertThat(params("{}").optionalStrings("l")).isEmpty();
    }

    @Test
    void idListsAreDeduplicatedInOrderAndMayBeRequiredNonEmpty() {
        assertThat(params("{\"ids\":[\"b\",\"a\",\"b\"]}").requiredIds("ids", "user"))
                .containsExactly("b", "a");
        assertThat(params("{\"ids\":[]}").requiredIdsOrNone("ids")).isEmpty();
        assertBad(
                () -> params("{\"ids\":[]}").requiredIds("ids", "user"),
                "parameters.ids",
                "must name at least one user");
        assertBad(() -> params("{}").requiredIdsOrNone("ids"), "parameters.ids", "is required");
    }

    @Test
    void nestedObjectsReportTheFullPath() {
        Params p = params("{\"users\":[{\"name\":\"a\"},{\"keys\":[{}]}]}");
        List<Optional<String>> names = p.requiredObjects("users", u -> u.optionalString("name"));
        assertThat(names).containsExactly(Optional.of("a"), Optional.empty());
        assertBad(
                () -> p.requiredObjects("users", u -> u.requiredObjects("keys", k -> k.requiredString("publicKey"))),
                "parameters.users[0].keys",
                "is required");
        assertBad(
                () -> params("{\"users\":[{\"keys\":[{}]}]}")
                        .requiredObjects("users", u -> u.requiredObjects("keys", k -> k.requiredString("publicKey"))),
                "parameters.users[0].keys[0].publicKey",
                "is required");
        assertBad(() -> params("{\"o\":[]}").requiredObject("o"), "parameters.o", "must be a JSON object");
    }

    @Test
    void booleansMustBeBooleans() {
        assertThat(params("{}").optionalBoolean("b", true)).isTrue();
        assertThat(params("{\"b\":false}").optionalBoolean("b", true)).isFalse();
        assertBad(() -> params("{\"b\":\"false\"}").optionalBoolean("b", true), "parameters.b", "must be a boolean");
    }

    @Test
    void longInputIsAbbreviatedInMessages() {
        String huge = "X".repeat(10_000);
        assertThatThrownBy(() -> params("{\"s\":\"" + huge + "\"}").requiredEnum("s", TestSelection.class))
                .hasMessageNotContaining(huge)
                .hasMessageContaining("…");
    }

    enum TestSelection implements WireEnum {
        APPROVED,
        REJECTED;

        @Override
        public String wireName() {
            return "VOTE_SELECTION_" + name();
        }
    }
}
