package dev.keyhaven.server.http;

import dev.keyhaven.server.api.QueryHandler;
import dev.keyhaven.server.auth.CallerResolver;
import java.util.Optional;

/**
 * One operation of the public API: a query (answered by its handler, or by its state handler on the organization's
 * verified state) or a submit operation (run by the activity engine), with where its caller's credential may be
 * found and the class that implements it (what docs/operations.md links to). {@code keyhavenOnly} marks a query of
 * Keyhaven's own, which Turnkey's API does not have (the generated documents say so).
 */
record Operation(
        Kind kind,
        String name,
        Optional<QueryHandler> query,
        Optional<StateQueryHandler> stateQuery,
        CallerResolver.Scope scope,
        Class<?> implementation,
        boolean keyhavenOnly) {

    enum Kind {
        QUERY("/public/v1/query/"),
        SUBMIT("/public/v1/submit/");

        private final String prefix;

        Kind(String prefix) {
            this.prefix = prefix;
        }
    }

    static Operation query(String name, Class<?> implementation, QueryHandler handler) {
        return new Operation(
                Kind.QUERY,
                name,
                Optional.of(handler),
                Optional.empty(),
                CallerResolver.Scope.ORGANIZATION_OR_PARENT,
                implementation,
                false);
    }

    /** A query of Keyhaven's own, not in Turnkey's API, read like any other. */
    static Operation keyhavenQuery(String name, Class<?> implementation, QueryHandler handler) {
        return new Operation(
                Kind.QUERY,
                name,
                Optional.of(handler),
                Optional.empty(),
                CallerResolver.Scope.ORGANIZATION_OR_PARENT,
                implementation,
                true);
    }

    /** A query answered on the organization's verified state, which may remember its answers per version. */
    static Operation queryOnState(String name, Class<?> implementation, StateQueryHandler handler) {
        return new Operation(
                Kind.QUERY,
                name,
                Optional.empty(),
                Optional.of(handler),
                CallerResolver.Scope.ORGANIZATION_OR_PARENT,
                implementation,
                false);
    }

    /**
     * A query answered on the organization's verified state that also finds a caller in the target's
     * sub-organizations (whoami).
     */
    static Operation queryOnStateWithSubOrganizationLookup(
            String name, Class<?> implementation, StateQueryHandler handler) {
        return new Operation(
                Kind.QUERY,
                name,
                Optional.empty(),
                Optional.of(handler),
                CallerResolver.Scope.WITH_SUB_ORGANIZATIONS,
                implementation,
                false);
    }

    /** A submit operation, run by the activity handler of class {@code implementation}. */
    static Operation submit(String name, Class<?> implementation) {
        return new Operation(
                Kind.SUBMIT,
                name,
                Optional.empty(),
                Optional.empty(),
                CallerResolver.Scope.ORGANIZATION_OR_PARENT,
                implementation,
                false);
    }

    /**
     * A submit operation that, addressed to a parent, also finds its caller in the one sub-organization holding the
     * credential, and then runs there ({@code stamp_login}: @turnkey/core signs a wallet or passkey in with the
     * parent's id, not knowing the user's sub-organization).
     */
    static Operation submitWithSubOrganizationLookup(String name, Class<?> implementation) {
        return new Operation(
                Kind.SUBMIT,
                name,
                Optional.empty(),
                Optional.empty(),
                CallerResolver.Scope.WITH_SUB_ORGANIZATIONS,
                implementation,
                false);
    }

    String path() {
        return kind.prefix + name;
    }
}
