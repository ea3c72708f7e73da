package dev.keyhaven.server.privatekey;

import dev.keyhaven.server.activity.ActivityAction;
import dev.keyhaven.server.activity.ActivityContext;
import dev.keyhaven.server.activity.ActivityHandler;
import dev.keyhaven.server.activity.ActivityResource;
import dev.keyhaven.server.activity.ActivitySpec;
import dev.keyhaven.server.activity.ActivityType;
import dev.keyhaven.server.activity.ActivityVersion;
import dev.keyhaven.server.api.ApiException;
import dev.keyhaven.server.api.Params;
import dev.keyhaven.server.user.TagType;
import dev.keyhaven.server.user.UserRepository;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/** {@code delete_private_key_tags}: deletes tags (all or none) and reports the keys that carried them. */
final class DeletePrivateKeyTagsHandler implements ActivityHandler<List<String>> {
    private static final ActivitySpec SPEC = ActivitySpec.of(
            "delete_private_key_tags",
            ActivityResource.PRIVATE_KEY,
            ActivityAction.DELETE,
            new ActivityVersion(
                    ActivityType.DELETE_PRIVATE_KEY_TAGS, "deletePrivateKeyTagsIntent", "deletePrivateKeyTagsResult"));

    private final UserRepository tags;
    private final PrivateKeyRepository keys;

    public DeletePrivateKeyTagsHandler(UserRepository tags, PrivateKeyRepository keys) {
        this.tags = tags;
        this.keys = keys;
    }

    @Override
    public ActivitySpec spec() {
        return SPEC;
    }

    @Override
    public List<String> parse(Params p) {
        return p.requiredIds("privateKeyTagIds", "private key tag");
    }

    @Override
    public Object execute(ActivityContext context, List<String> tagIds) {
        String org = context.organizationId();
        for (String id : tagIds) {
            if (tags.findTag(context.tx(), org, id)
                    .filter(t -> t.type() == TagType.TAG_TYPE_PRIVATE_KEY)
                    .isEmpty()) {
                throw ApiException.notFound("no private key tag found with id " + id);
            }
        }
        Set<String> untagged = new LinkedHashSet<>();
        for (String id : tagIds) {
            untagged.addAll(keys.keysWithTag(context.tx(), id));
            keys.untagAll(context.tx(), id);
            tags.deleteTag(context.tx(), org, id);
        }
        return new Result(tagIds, List.copyOf(untagged));
    }

    /** {@code deletePrivateKeyTagsResult}. */
    public record Result(List<String> privateKeyTagIds, List<String> privateKeyIds) {}
}
