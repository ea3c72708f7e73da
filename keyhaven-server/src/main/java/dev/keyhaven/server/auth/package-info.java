/**
 * Authentication: parsing the stamp headers, verifying the signature over the exact request body, and resolving
 * the verified credential to a {@link dev.keyhaven.server.api.Caller} in the target organization (or its parent,
 * read-only, or one of its sub-organizations for lookups such as whoami).
 */
package dev.keyhaven.server.auth;
