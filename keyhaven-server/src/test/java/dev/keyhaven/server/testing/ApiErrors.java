package dev.keyhaven.server.testing;

import static org.assertj.core.api.Assertions.assertThat;

import dev.keyhaven.client.KeyhavenApiException;
import dev.keyhaven.server.api.ApiException;
import dev.keyhaven.server.api.ErrorCode;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * Captures the API error a call must end with, and asserts what the error is by its codes and the field it blames,
 * not by the wording of its message (which may change; where the exact message is the contract, assert it too).
 */
public final class ApiErrors {
    private ApiErrors() {}

    /** Runs {@code call}, which must fail with an API error, and returns that error. */
    public static KeyhavenApiException apiError(Runnable call) {
        try {
            call.run();
        } catch (KeyhavenApiException e) {
            return e;
        }
        throw new AssertionError("expected an API error, but the call succeeded");
    }

    /**
     * Runs {@code call}, which must fail with {@code code} on the wire (its HTTP status, gRPC code and
     * {@code turnkeyErrorCode}) blaming {@code field} ({@code null}: no field), and returns the error.
     */
    public static KeyhavenApiException apiError(ErrorCode code, String field, Runnable call) {
        return assertError(apiError(call), code, field);
    }

    /** Asserts that {@code error} is {@code code} on the wire and blames {@code field} ({@code null}: none). */
    public static KeyhavenApiException assertError(KeyhavenApiException error, ErrorCode code, String field) {
        assertThat(List.of(error.httpStatus(), error.code(), error.turnkeyErrorCode(), error.field()))
                .as("status, gRPC code, turnkeyErrorCode and field of %s", error)
                .containsExactly(
                        code.httpStatus(), code.grpc().number(), code.turnkeyErrorCode(), Optional.ofNullable(field));
        return error;
    }

    /**
     * For {@code assertThatThrownBy(...).isInstanceOfSatisfying(ApiException.class, isError(code, field))}: the
     * server-side error has {@code code} and blames {@code field} ({@code null}: none).
     */
    public static Consumer<ApiException> isError(ErrorCode code, String field) {
        return e -> assertThat(List.of(e.code(), e.field()))
                .as("code and field of \"%s\"", e.getMessage())
                .containsExactly(code, Optional.ofNullable(field));
    }
}
