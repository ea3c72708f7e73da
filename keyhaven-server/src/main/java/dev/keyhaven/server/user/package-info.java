/**
 * Users and their credentials (API keys, passkey authenticators) and user tags: the handlers of the activities
 * that change them, the queries that read them, their wire forms and the repository interfaces the store
 * implements.
 */
package dev.keyhaven.server.user;
