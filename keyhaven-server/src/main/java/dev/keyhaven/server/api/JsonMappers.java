package dev.keyhaven.server.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import tools.jackson.core.StreamReadConstraints;
import tools.jackson.core.StreamReadFeature;
import tools.jackson.core.json.JsonFactory;
import tools.jackson.databind.MapperFeature;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.json.JsonMapper;

/** The one JSON configuration of the server. */
public final class JsonMappers {
    private JsonMappers() {}

    /**
     * A mapper that rejects duplicate object keys (so a body cannot mean one thing to the signer and another to the
     * server), bounds nesting and token sizes, omits absent optionals and nulls, and keeps record components in
     * declaration order.
     */
    public static ObjectMapper strict() {
        JsonFactory factory = JsonFactory.builder()
                .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
                .streamReadConstraints(StreamReadConstraints.builder()
                        .maxNestingDepth(64)
                        .maxStringLength(2_000_000)
                        .maxNumberLength(100)
                        .build())
                .build();
        return JsonMapper.builder(factory)
                .disable(MapperFeature.SORT_PROPERTIES_ALPHABETICALLY)
                .disable(SerializationFeature.FAIL_ON_EMPTY_BEANS)
                .changeDefaultPropertyInclusion(v -> v.withValueInclusion(JsonInclude.Include.NON_ABSENT))
                .build();
    }
}
