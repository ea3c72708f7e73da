/**
 * The vocabulary every layer shares: the error type and its codes, wire enums, the reader that validates JSON
 * parameters field by field, the authenticated {@link dev.keyhaven.server.api.Caller}, the query contract, ids and
 * wire timestamps. It depends on nothing else in the server.
 */
package dev.keyhaven.server.api;
