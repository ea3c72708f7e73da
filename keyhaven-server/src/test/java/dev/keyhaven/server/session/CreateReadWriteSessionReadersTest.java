package dev.keyhaven.server.session;

import static dev.keyhaven.server.testing.ApiErrors.isError;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.keyhaven.server.api.ApiException;
import dev.keyhaven.server.api.ErrorCode;
import dev.keyhaven.server.api.JsonMappers;
import dev.keyhaven.server.api.Params;
import dev.keyhaven.server.testing.Bundles.TargetKey;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** create_read_write_session's readers: V1 names the user by email, V2 by id. */
class CreateReadWriteSessionReadersTest {
    private static final String TARGET = TargetKey.generate().uncompressed();

    private static Params params(String json) {
        return Params.of(JsonMappers.strict().readTree(json), "parameters");
    }

    @Test
    void v1NamesTheUserByEmailAndNeverInvalidatesExistingSessions() {
        CreateReadWriteSessionHandler.Intent read = CreateReadWriteSessionHandler.readV1(params(
                "{\"targetPublicKey\":\"" + TARGET + "\",\"email\":\"a@example.com\",\"invalidateExisting\":true}"));

        assertThat(read.holder()).isEqualTo(new CreateReadWriteSessionHandler.ByEmail("a@example.com"));
        assertThat(read.invalidateExisting()).isFalse();
    }

    @Test
    void v1NeedsAnEmail() {
        assertThatThrownBy(() -> CreateReadWriteSessionHandler.readV1(
                        params("{\"targetPublicKey\":\"" + TARGET + "\",\"userId\":\"u\"}")))
                .isInstanceOfSatisfying(ApiException.class, isError(ErrorCode.BAD_REQUEST, "parameters.email"));
        assertThatThrownBy(() -> CreateReadWriteSessionHandler.readV1(
                        params("{\"targetPublicKey\":\"" + TARGET + "\",\"email\":\"nope\"}")))
                .isInstanceOfSatisfying(ApiException.class, isError(ErrorCode.BAD_REQUEST, "parameters.email"));
    }

    @Test
    void v2NamesTheUserById() {
        CreateReadWriteSessionHandler.Intent read = CreateReadWriteSessionHandler.readV2(
                params("{\"targetPublicKey\":\"" + TARGET + "\",\"userId\":\"u\",\"invalidateExisting\":true}"));

        assertThat(read.holder()).isEqualTo(new CreateReadWriteSessionHandler.ById(Optional.of("u")));
        assertThat(read.invalidateExisting()).isTrue();
    }
}
