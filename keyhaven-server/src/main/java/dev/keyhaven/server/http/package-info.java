/**
 * HTTP: the route table (every path in one place), the pipeline of a public API request (raw body → stamp →
 * caller → query or activity → JSON), error bodies in the real service's format, CORS, health and metrics. Nothing
 * here touches storage or keys directly. The listeners keep per-phase deadlines and a cap on their connections, are
 * restarted when Helidon gives one up, and refuse malformed framing with JSON errors ({@code SupervisedListener},
 * {@code ConnectionGuard}).
 */
package dev.keyhaven.server.http;
