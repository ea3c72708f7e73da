package dev.keyhaven.server.testing;

import dev.keyhaven.client.ApiKeyStamper;
import dev.keyhaven.client.KeyhavenClient;
import dev.keyhaven.client.Requests.ApiKeyParams;
import dev.keyhaven.client.Requests.RootUserParams;
import java.util.List;

/**
 * A sub-organization of the parent's organization whose one root user holds a fresh P-256 API key, and a client
 * signed in to the sub-organization with that key (the sub-organization's own users decide its activities).
 */
public record SubOrganization(String id, KeyhavenClient client) {

    public static SubOrganization create(KeyhavenClient parent, String name) {
        ApiKeyStamper key = TestServer.newKey(ApiKeyStamper.Curve.P256);
        String id = parent.createSubOrganization(
                        name,
                        List.of(RootUserParams.withApiKeys("root of " + name, List.of(ApiKeyParams.of("k", key)))),
                        1)
                .result()
                .path("subOrganizationId")
                .asString();
        return new SubOrganization(id, parent.withStamper(key).forOrganization(id));
    }
}
