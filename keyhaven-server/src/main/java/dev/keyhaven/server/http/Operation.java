package dev.keyhaven.server.http;

import dev.keyhaven.server.api.QueryHandler;
import dev.keyhaven.server.auth.CallerResolver;
import java.util.Optional;

/**
 * One operation of the public API: a query (answered by its handler, or by its state handler on the organization's
 * verified state) or a submit operation (run by the activity engine), with where its caller's credential may be
 * found.
 */
record Operation(Kind kind, String name, Optional<QueryHandler> query, Optional<StateQueryHandler> stateQuery,
        CallerResolver.Scope scope) {

    enum Kind {
        QUERY("/public/v1/query/"),
        SUBMIT("/public/v1/submit/");

        private final String prefix;

        Kind(String prefix) {
            this.prefix = prefix;
        }
    }

    static Operation query(String name, QueryHandler handler) {
        return new Operation(Kind.QUERY, name, Optional.of(handler), Optional.empty(),
                CallerResolver.Scope.ORGANIZATION_OR_PARENT);
    }

    /** A query answered on the organization's verified state, which may remember its answers per version. */
    static Operation queryOnState(String name, StateQueryHandler handler) {
        return new Operation(Kind.QUERY, name, Optional.empty(), Optional.of(handler),
                CallerResolver.Scope.ORGANIZATION_OR_PARENT);
    }

    /** A query that also finds a caller in the target's sub-organizations (whoami). */
    static Operation queryWithSubOrganizationLookup(String name, QueryHandler handler) {
        return new Operation(Kind.QUERY, name, Optional.of(handler), Optional.empty(),
                CallerResolver.Scope.WITH_SUB_ORGANIZATIONS);
    }

    static Operation submit(String name) {
        return new Operation(Kind.SUBMIT, name, Optional.empty(), Optional.empty(),
                CallerResolver.Scope.ORGANIZATION_OR_PARENT);
    }

    String path() {
        return kind.prefix + name;
    }
}
