package dev.keyhaven.server.activity;

import static dev.keyhaven.server.activity.VersionTable.version;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.keyhaven.server.api.JsonMappers;
import dev.keyhaven.server.api.Params;
import java.util.List;
import org.junit.jupiter.api.Test;

class VersionTableTest {
    private record Current(List<String> ids) {}

    private record Old(String id) {}

    private final VersionTable<String> table = VersionTable.of(
            version(
                    ActivityType.CREATE_USERS_V2,
                    "createUsersIntentV2",
                    "createUsersResult",
                    p -> p.requiredString("b")),
            version(
                    ActivityType.CREATE_USERS,
                    "createUsersIntent",
                    "createUsersResultOld",
                    result -> new Old(((Current) result).ids().getFirst()),
                    p -> p.requiredString("a")));

    private static Params params(String json) {
        return Params.of(JsonMappers.strict().readTree(json), "parameters");
    }

    @Test
    void eachVersionIsReadByItsOwnReader() {
        Params both = params("{\"a\":\"from a\",\"b\":\"from b\"}");
        assertThat(table.read(both, ActivityType.CREATE_USERS_V2)).isEqualTo("from b");
        assertThat(table.read(both, ActivityType.CREATE_USERS)).isEqualTo("from a");
        assertThatThrownBy(() -> table.read(both, ActivityType.CREATE_USERS_V3))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void theVersionsAreListedNewestFirstWithTheirKeysAndResultViews() {
        List<ActivityVersion> versions = table.versions();
        assertThat(versions)
                .extracting(ActivityVersion::type)
                .containsExactly(ActivityType.CREATE_USERS_V2, ActivityType.CREATE_USERS);
        assertThat(versions)
                .extracting(ActivityVersion::intentKey)
                .containsExactly("createUsersIntentV2", "createUsersIntent");
        Current result = new Current(List.of("u1"));
        assertThat(versions.get(0).resultView().apply(result)).isSameAs(result);
        assertThat(versions.get(1).resultView().apply(result)).isEqualTo(new Old("u1"));
    }
}
