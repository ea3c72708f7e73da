package dev.keyhaven.client;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;

/**
 * An error response of the API: the HTTP status and the body's gRPC {@code code}, {@code message},
 * {@code turnkeyErrorCode} and {@code details}, with the field violations read out of them (the JSON path of the
 * input to blame, as the server reports it in a {@code google.rpc.BadRequest} detail).
 *
 * <p>Callers (and tests) should switch on {@link #turnkeyErrorCode()}, {@link #code()} and {@link #field()}, not on
 * the message's wording. Neither the message nor {@link #toString()} holds anything of the request: only what the
 * server answered, which by its contract names the problem and never a secret.
 */
public final class KeyhavenApiException extends RuntimeException {
    private static final long serialVersionUID = 2L;

    private static final String BAD_REQUEST_TYPE = "type.googleapis.com/google.rpc.BadRequest";

    /** One field the server blamed: its JSON path ({@code parameters.users[0].userName}) and what is wrong. */
    public record FieldViolation(String field, String description) implements Serializable {}

    private final int httpStatus;
    private final int code;
    private final String serverMessage;
    private final String turnkeyErrorCode;
    private final List<FieldViolation> fieldViolations;
    /** The body's {@code details} as sent; transient, as a JSON tree is not meant to be Java-serialised. */
    private final transient JsonNode details;

    public KeyhavenApiException(int httpStatus, int code, String message, String turnkeyErrorCode) {
        this(httpStatus, code, message, turnkeyErrorCode, JsonNodeFactory.instance.arrayNode());
    }

    /** An error with the body's {@code details} array (anything else reads as none). */
    public KeyhavenApiException(int httpStatus, int code, String message, String turnkeyErrorCode, JsonNode details) {
        super("HTTP " + httpStatus + " (code " + code + ", " + turnkeyErrorCode + "): " + message);
        this.httpStatus = httpStatus;
        this.code = code;
        this.serverMessage = message;
        this.turnkeyErrorCode = turnkeyErrorCode;
        this.details = details != null && details.isArray() ? details.deepCopy() : JsonNodeFactory.instance.arrayNode();
        this.fieldViolations = fieldViolationsOf(this.details);
    }

    private static List<FieldViolation> fieldViolationsOf(JsonNode details) {
        List<FieldViolation> violations = new ArrayList<>();
        for (JsonNode detail : details) {
            if (BAD_REQUEST_TYPE.equals(detail.path("@type").asString(""))) {
                for (JsonNode violation : detail.path("fieldViolations")) {
                    violations.add(new FieldViolation(
                            violation.path("field").asString(""),
                            violation.path("description").asString("")));
                }
            }
        }
        return List.copyOf(violations);
    }

    public int httpStatus() {
        return httpStatus;
    }

    /** The gRPC status code of the error body. */
    public int code() {
        return code;
    }

    /** The body's {@code message}, verbatim ({@link #getMessage()} prefixes the status and codes). */
    public String serverMessage() {
        return serverMessage;
    }

    public String turnkeyErrorCode() {
        return turnkeyErrorCode;
    }

    /** The field violations of the body's {@code details}, in order; empty when no field is to blame. */
    public List<FieldViolation> fieldViolations() {
        return fieldViolations;
    }

    /** The JSON path of the first field the server blamed, if any. */
    public Optional<String> field() {
        return fieldViolations.stream().map(FieldViolation::field).findFirst();
    }

    /** The body's {@code details} array as sent (a copy); empty after Java deserialisation. */
    public JsonNode details() {
        return details == null ? JsonNodeFactory.instance.arrayNode() : details.deepCopy();
    }

    /** Status, codes, blamed field and the server's message; never the request, its stamp or its body. */
    @Override
    public String toString() {
        StringBuilder s = new StringBuilder("KeyhavenApiException[HTTP ")
                .append(httpStatus)
                .append(", code ")
                .append(code)
                .append(", ")
                .append(turnkeyErrorCode);
        field().ifPresent(f -> s.append(", field ").append(f));
        return s.append("]: ").append(serverMessage).toString();
    }
}
