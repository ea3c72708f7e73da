package dev.keyhaven.server.api;

/** Creates identifiers for new resources. Injected so that tests can make them predictable. */
@FunctionalInterface
public interface Ids {
    String next();
}
