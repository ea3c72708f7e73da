package dev.keyhaven.server.api;

/**
 * A read-only operation under {@code /public/v1/query/}. It receives the authenticated caller and the request body
 * (already known to be a JSON object whose {@code organizationId} the caller may read) and returns the response
 * object, which is serialised as JSON.
 */
@FunctionalInterface
public interface QueryHandler {
    Object handle(Caller caller, Params body);
}
