package dev.keyhaven.server.api;

import java.util.Optional;

/**
 * {@code paginationOptions}: a page size and an optional cursor. {@code after} returns the items that follow the
 * cursor in the list's order, {@code before} those that precede it (still in list order). Cursors are object ids.
 */
public record Pagination(int limit, Optional<String> before, Optional<String> after) {
    public static final int DEFAULT_LIMIT = 10;
    public static final int MAX_LIMIT = 100;

    public static Pagination firstPage(int limit) {
        return new Pagination(limit, Optional.empty(), Optional.empty());
    }

    /** Reads the optional {@code paginationOptions} member of {@code body}. */
    public static Pagination read(Params body) {
        Optional<Params> options = body.optionalObject("paginationOptions");
        if (options.isEmpty()) {
            return firstPage(DEFAULT_LIMIT);
        }
        Params p = options.get();
        int limit = DEFAULT_LIMIT;
        Optional<String> rawLimit = p.optionalString("limit");
        if (rawLimit.isEmpty() && p.has("limit")) {
            throw ApiException.badField(p.pathOf("limit"), "must be an integer between 1 and " + MAX_LIMIT);
        }
        if (rawLimit.isPresent()) {
            String text = rawLimit.get();
            if (!text.matches("[0-9]{1,3}") || Integer.parseInt(text) < 1 || Integer.parseInt(text) > MAX_LIMIT) {
                throw ApiException.badField(
                        p.pathOf("limit"), "must be an integer between 1 and " + MAX_LIMIT + " (in a string)");
            }
            limit = Integer.parseInt(text);
        }
        Optional<String> before = p.optionalString("before");
        Optional<String> after = p.optionalString("after");
        if (before.isPresent() && after.isPresent()) {
            throw ApiException.badField(p.path(), "may set before or after, not both");
        }
        return new Pagination(limit, before, after);
    }
}
