package dev.keyhaven.server.policy;

import static dev.keyhaven.server.testing.ApiErrors.isError;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.keyhaven.server.api.ApiException;
import dev.keyhaven.server.api.ErrorCode;
import dev.keyhaven.server.api.JsonMappers;
import dev.keyhaven.server.api.Params;
import org.junit.jupiter.api.Test;

/** update_policy's readers: V1 is V2 without the time window. */
class UpdatePolicyReadersTest {

    private static Params params(String json) {
        return Params.of(JsonMappers.strict().readTree(json), "parameters");
    }

    @Test
    void v1ReadsV2sOtherFields() {
        UpdatePolicyHandler.Intent read =
                UpdatePolicyHandler.readV1(params("{\"policyId\":\"p\",\"policyName\":\"n\"}"));

        assertThat(read.policyId()).isEqualTo("p");
    }

    @Test
    void v1RefusesATimeWindowThatOnlyV2Has() {
        String json = "{\"policyId\":\"p\",\"time\":\"\"}";
        assertThatThrownBy(() -> UpdatePolicyHandler.readV1(params(json)))
                .isInstanceOfSatisfying(ApiException.class, isError(ErrorCode.BAD_REQUEST, "parameters.time"));
        assertThat(UpdatePolicyHandler.read(params(json)).policyId()).isEqualTo("p");
    }
}
