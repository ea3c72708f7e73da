package dev.keyhaven.server.api;

import static dev.keyhaven.server.testing.ApiErrors.isError;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class PaginationTest {
    private static Pagination read(String json) {
        return Pagination.read(Params.of(JsonMappers.strict().readTree(json), ""));
    }

    @Test
    void defaultsToTenItemsFromTheStart() {
        Pagination page = read("{}");
        assertThat(page.limit()).isEqualTo(10);
        assertThat(page.after()).isEmpty();
        assertThat(page.before()).isEmpty();
    }

    @Test
    void readsLimitAndCursor() {
        Pagination page = read("{\"paginationOptions\":{\"limit\":\"100\",\"after\":\"id-1\"}}");
        assertThat(page.limit()).isEqualTo(100);
        assertThat(page.after()).contains("id-1");
        assertThat(read("{\"paginationOptions\":{\"before\":\"id-2\"}}").before())
                .contains("id-2");
    }

    @Test
    void rejectsLimitsOutsideOneToHundredAndBothCursors() {
        for (String limit : new String[] {"\"0\"", "\"101\"", "\"abc\"", "\"-3\"", "\"1000\"", "5", "\"\""}) {
            assertThatThrownBy(() -> read("{\"paginationOptions\":{\"limit\":" + limit + "}}"))
                    .isInstanceOfSatisfying(
                            ApiException.class, isError(ErrorCode.BAD_REQUEST, "paginationOptions.limit"));
        }
        assertThatThrownBy(() -> read("{\"paginationOptions\":{\"before\":\"a\",\"after\":\"b\"}}"))
                .isInstanceOfSatisfying(ApiException.class, isError(ErrorCode.BAD_REQUEST, "paginationOptions"))
                .hasMessage("bad request body: paginationOptions may set before or after, not both");
    }
}
