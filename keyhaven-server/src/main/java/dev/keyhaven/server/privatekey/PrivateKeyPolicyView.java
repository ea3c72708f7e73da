package dev.keyhaven.server.privatekey;

import dev.keyhaven.policy.Value;
import java.util.List;
import java.util.Map;

/**
 * The policy language's {@code private_key}: {@code id}, {@code label}, {@code tags}, {@code imported},
 * {@code exported}.
 */
public final class PrivateKeyPolicyView {
    private PrivateKeyPolicyView() {}

    public static Value of(PrivateKey key, List<String> tagIds) {
        return Value.struct(Map.of(
                "id",
                Value.of(key.id()),
                "label",
                Value.of(key.name()),
                "tags",
                Value.strings(tagIds),
                "imported",
                Value.of(key.imported()),
                "exported",
                Value.of(key.exported())));
    }
}
