package dev.keyhaven.server.testing;

import dev.keyhaven.client.KeyhavenApiException;

/** Captures the API error a call must end with. */
public final class ApiErrors {
    private ApiErrors() {
    }

    /** Runs {@code call}, which must fail with an API error, and returns that error. */
    public static KeyhavenApiException apiError(Runnable call) {
        try {
            call.run();
        } catch (KeyhavenApiException e) {
            return e;
        }
        throw new AssertionError("expected an API error, but the call succeeded");
    }
}
