package dev.keyhaven.server.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.ObjectMapper;

/** What {@link JsonBody} accepts and how it names what it refuses; the listeners' side is {@code BodyEncodingIT}. */
class JsonBodyTest {
    private static final ObjectMapper JSON = JsonMappers.strict();

    private static void assertRefused(byte[] body, String message, String field) {
        assertThatThrownBy(() -> JsonBody.parse(JSON, body)).isInstanceOfSatisfying(ApiException.class, e -> {
            assertThat(e.code()).isEqualTo(ErrorCode.BAD_REQUEST);
            assertThat(e.getMessage()).isEqualTo(message);
            assertThat(e.field().orElse(null)).isEqualTo(field);
        });
    }

    private static byte[] utf8(String json) {
        return json.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void utf8WithAnyCharacterOutsideTheBasicPlaneIsRead() {
        assertThat(JsonBody.parse(JSON, utf8("{\"name\":\"caf\u00e9 \u20ac \uD83D\uDD11\",\"esc\":\"\\ud83d\\udd11\"}"))
                        .path("esc")
                        .stringValue())
                .isEqualTo("\uD83D\uDD11");
    }

    @Test
    void aUtf32LittleEndianMarkIsNotTakenForUtf16() {
        byte[] body = new byte[] {(byte) 0xFF, (byte) 0xFE, 0, 0, '{', 0, 0, 0, '}', 0, 0, 0};
        assertRefused(
                body, "bad request body: not UTF-8 but UTF-32LE (by its byte order mark); send JSON as UTF-8", null);
    }

    @Test
    void aOneCharacterBodyInUtf16IsNamedToo() {
        assertRefused(
                "7".getBytes(StandardCharsets.UTF_16BE),
                "bad request body: not UTF-8 but UTF-16BE; send " + "JSON as UTF-8",
                null);
        assertRefused(
                "7".getBytes(Charset.forName("UTF-32LE")),
                "bad request body: not UTF-8 but UTF-32LE; send " + "JSON as UTF-8",
                null);
    }

    @Test
    void aTruncatedSequenceAtTheEndIsInvalidUtf8() {
        byte[] body = utf8("{\"a\":\"\u20ac\"}");
        byte[] cut = Arrays.copyOf(body, 8);
        assertRefused(cut, "bad request body: not valid UTF-8 at byte offset 6; send JSON as UTF-8", null);
    }

    @Test
    void aNulInsideAnArrayOfTheRootIsNamedByIndex() {
        assertRefused(
                utf8("[\"a\",[\"\\u0000\"]]"), "bad request body: [1][0] contains a NUL character (U+0000)", "[1][0]");
    }

    @Test
    void aLongMemberNameIsShortenedInThePath() {
        String name = "n".repeat(100);
        assertRefused(
                utf8("{\"" + name + "\":\"\\u0000\"}"),
                "bad request body: " + "n".repeat(64) + "… contains a NUL character (U+0000)",
                "n".repeat(64) + "…");
    }

    @Test
    void malformedJsonKeepsItsLocation() {
        assertRefused(
                utf8("{\"a\":}"),
                "bad request body: malformed JSON at line 1, column 6: Unexpected character "
                        + "('}' (code 125)): expected a value",
                null);
    }

    @Test
    void aNumberBeyondADoublesRangeIsNamedByItsPath() {
        // Found by SubmitEnvelopeGuidedFuzzTest: 17731E54800000 read as infinity and wrote back as "Infinity".
        assertRefused(
                utf8("{\"timestampMs\":17731E54800000}"),
                "bad request body: timestampMs is a number beyond the range of a double",
                "timestampMs");
        assertRefused(utf8("[-1e400]"), "bad request body: [0] is a number beyond the range of a double", "[0]");
        assertRefused(utf8("1e999"), "bad request body: a number beyond the range of a double", null);
    }

    @Test
    void aLargeButFiniteNumberIsRead() {
        assertThat(JsonBody.parse(JSON, utf8("{\"n\":1.7976931348623157e308}"))
                        .get("n")
                        .doubleValue())
                .isEqualTo(Double.MAX_VALUE);
    }
}
