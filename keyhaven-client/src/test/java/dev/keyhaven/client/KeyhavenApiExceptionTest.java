package dev.keyhaven.client;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

class KeyhavenApiExceptionTest {
    private static final JsonMapper JSON = JsonMapper.builder().build();

    /** The details of a 400 as the server renders them: the Turnkey detail, then the field violation. */
    private static JsonNode details(String field, String description) {
        return JSON.readTree("""
                [{"@type":"type.googleapis.com/errors.v1.TurnkeyErrorDetail","turnkeyErrorCode":"REQUEST_INVALID"},
                 {"@type":"type.googleapis.com/google.rpc.BadRequest",
                  "fieldViolations":[{"field":"%s","description":"%s"}]}]""".formatted(field, description));
    }

    @Test
    void readsTheFieldViolationOutOfTheDetails() {
        String message = "bad request body: parameters.users[0].userName is required";
        KeyhavenApiException e = new KeyhavenApiException(
                400, 3, message, "REQUEST_INVALID", details("parameters.users[0].userName", message));

        assertThat(e.httpStatus()).isEqualTo(400);
        assertThat(e.code()).isEqualTo(3);
        assertThat(e.turnkeyErrorCode()).isEqualTo("REQUEST_INVALID");
        assertThat(e.serverMessage()).isEqualTo(message);
        assertThat(e.field()).contains("parameters.users[0].userName");
        assertThat(e.fieldViolations())
                .containsExactly(new KeyhavenApiException.FieldViolation("parameters.users[0].userName", message));
        assertThat(e.details()).hasSize(2);
        assertThat(e.getMessage()).isEqualTo("HTTP 400 (code 3, REQUEST_INVALID): " + message);
    }

    @Test
    void anErrorWithoutAFieldViolationBlamesNoField() {
        KeyhavenApiException e = new KeyhavenApiException(
                404,
                5,
                "no wallet found with id w",
                "UNSPECIFIED",
                JSON.readTree("[{\"@type\":\"type.googleapis.com/errors.v1.TurnkeyErrorDetail\"}]"));

        assertThat(e.field()).isEmpty();
        assertThat(e.fieldViolations()).isEmpty();
    }

    @Test
    void detailsThatAreNotAnArrayReadAsNone() {
        KeyhavenApiException e =
                new KeyhavenApiException(500, 13, "internal error", "INTERNAL", JSON.readTree("{\"unexpected\":true}"));

        assertThat(e.details()).isEmpty();
        assertThat(e.field()).isEmpty();
    }

    @Test
    void toStringNamesStatusCodesFieldAndTheServersMessageOnly() {
        KeyhavenApiException e = new KeyhavenApiException(
                400,
                3,
                "bad request body: parameters.url is required",
                "REQUEST_INVALID",
                details("parameters.url", "bad request body: parameters.url is required"));

        assertThat(e)
                .hasToString("KeyhavenApiException[HTTP 400, code 3, REQUEST_INVALID, field parameters.url]: "
                        + "bad request body: parameters.url is required");
        assertThat(new KeyhavenApiException(503, 14, "database unavailable", "UNSPECIFIED"))
                .hasToString("KeyhavenApiException[HTTP 503, code 14, UNSPECIFIED]: database unavailable");
    }

    @Test
    void theDetailsCannotBeChangedFromOutside() {
        JsonNode sent = details("parameters.url", "x");
        KeyhavenApiException e = new KeyhavenApiException(400, 3, "x", "REQUEST_INVALID", sent);
        ((tools.jackson.databind.node.ArrayNode) sent).removeAll();
        ((tools.jackson.databind.node.ArrayNode) e.details()).removeAll();

        assertThat(e.details()).hasSize(2);
        assertThat(e.field()).contains("parameters.url");
    }
}
