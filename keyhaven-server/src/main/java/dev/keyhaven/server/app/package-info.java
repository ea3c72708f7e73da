/**
 * The application: the command line ({@code init}, {@code serve}, {@code request}), configuration, and
 * {@link dev.keyhaven.server.app.Keyhaven}, the one class that constructs and connects everything. Only this package
 * knows the concrete store.
 */
package dev.keyhaven.server.app;
