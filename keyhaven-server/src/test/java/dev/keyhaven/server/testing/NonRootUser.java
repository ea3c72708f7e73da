package dev.keyhaven.server.testing;

import dev.keyhaven.client.ApiKeyStamper;
import dev.keyhaven.client.KeyhavenClient;
import dev.keyhaven.client.Requests.ApiKeyParams;
import dev.keyhaven.client.Requests.UserParams;
import java.util.List;

/**
 * A user of the organization outside its root quorum, with a P-256 API key: what policies decide for (the root
 * quorum's approvals bypass every policy).
 */
public record NonRootUser(String userId, KeyhavenClient client) {

    public static NonRootUser create(KeyhavenClient root, String name) {
        ApiKeyStamper key = TestServer.newKey(ApiKeyStamper.Curve.P256);
        String userId = root.createUsers(
                        List.of(UserParams.withApiKeys(name, List.of(ApiKeyParams.of(name + "'s key", key)))))
                .result()
                .path("userIds")
                .get(0)
                .asString();
        return new NonRootUser(userId, root.withStamper(key));
    }
}
