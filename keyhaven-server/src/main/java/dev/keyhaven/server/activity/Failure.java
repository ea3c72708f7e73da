package dev.keyhaven.server.activity;

import dev.keyhaven.server.api.ErrorCode;

/**
 * Why an activity failed. {@code reportedAsError} tells how the submitter learned of it: as an HTTP error (the
 * activity's execution broke a rule, for example a limit) or inside a 200 response (the authorization rules denied
 * it). A byte-identical resubmission is answered the same way.
 */
public record Failure(ErrorCode code, String message, boolean reportedAsError) {}
