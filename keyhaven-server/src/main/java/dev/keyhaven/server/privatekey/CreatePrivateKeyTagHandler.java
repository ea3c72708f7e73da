package dev.keyhaven.server.privatekey;

import dev.keyhaven.server.activity.ActivityAction;
import dev.keyhaven.server.activity.ActivityContext;
import dev.keyhaven.server.activity.ActivityHandler;
import dev.keyhaven.server.activity.ActivityResource;
import dev.keyhaven.server.activity.ActivitySpec;
import dev.keyhaven.server.activity.ActivityType;
import dev.keyhaven.server.activity.ActivityVersion;
import dev.keyhaven.server.api.ApiException;
import dev.keyhaven.server.api.ErrorCode;
import dev.keyhaven.server.api.Params;
import dev.keyhaven.server.user.Tag;
import dev.keyhaven.server.user.TagType;
import dev.keyhaven.server.user.UserLimits;
import dev.keyhaven.server.user.UserRepository;
import java.util.List;

/** {@code create_private_key_tag}: a tag, unique by name among private-key tags, applied to keys. */
final class CreatePrivateKeyTagHandler implements ActivityHandler<CreatePrivateKeyTagHandler.Intent> {
    private static final ActivitySpec SPEC = ActivitySpec.of(
            "create_private_key_tag",
            ActivityResource.PRIVATE_KEY,
            ActivityAction.CREATE,
            new ActivityVersion(
                    ActivityType.CREATE_PRIVATE_KEY_TAG, "createPrivateKeyTagIntent", "createPrivateKeyTagResult"));

    private final UserRepository tags;
    private final PrivateKeyRepository keys;
    private final UserLimits limits;

    public CreatePrivateKeyTagHandler(UserRepository tags, PrivateKeyRepository keys, UserLimits limits) {
        this.tags = tags;
        this.keys = keys;
        this.limits = limits;
    }

    /** The validated parameters. */
    public record Intent(String privateKeyTagName, List<String> privateKeyIds) {}

    @Override
    public ActivitySpec spec() {
        return SPEC;
    }

    @Override
    public Intent parse(Params p) {
        return new Intent(p.requiredString("privateKeyTagName"), p.requiredIdsOrNone("privateKeyIds"));
    }

    @Override
    public Object execute(ActivityContext context, Intent intent) {
        String org = context.organizationId();
        tags.lockOrganization(context.tx(), org);
        int limit = tags.isSubOrganization(context.tx(), org)
                ? limits.tagsPerSubOrganization()
                : limits.tagsPerOrganization();
        if (tags.countTags(context.tx(), org) >= limit) {
            throw new ApiException(ErrorCode.LIMIT_EXCEEDED, "organization has exceeded maximum tags (" + limit + ")");
        }
        if (tags.findTagByName(context.tx(), org, TagType.TAG_TYPE_PRIVATE_KEY, intent.privateKeyTagName())
                .isPresent()) {
            throw ApiException.badRequest(
                    "a private key tag named '" + intent.privateKeyTagName() + "' already exists");
        }
        List<String> missing = keys.missing(context.tx(), org, intent.privateKeyIds());
        ApiException.requireNoneMissing("private key", missing);
        Tag tag = new Tag(
                context.ids().next(),
                org,
                intent.privateKeyTagName(),
                TagType.TAG_TYPE_PRIVATE_KEY,
                context.now(),
                context.now());
        tags.insertTag(context.tx(), tag);
        intent.privateKeyIds().forEach(id -> keys.tag(context.tx(), tag.id(), id));
        return new Result(tag.id(), intent.privateKeyIds());
    }

    /** {@code createPrivateKeyTagResult}. */
    public record Result(String privateKeyTagId, List<String> privateKeyIds) {}
}
