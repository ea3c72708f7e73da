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
import dev.keyhaven.server.user.Tag;
import dev.keyhaven.server.user.TagType;
import dev.keyhaven.server.user.UserRepository;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;

/**
 * {@code update_private_key_tag}: rename plus add and remove lists, all or nothing. Every check runs before the
 * first write, and the whole activity is one transaction, so an unknown key id fails it with nothing changed.
 * A key in both lists ends up tagged (removals apply first).
 */
final class UpdatePrivateKeyTagHandler implements ActivityHandler<UpdatePrivateKeyTagHandler.Intent> {
    private static final ActivitySpec SPEC = ActivitySpec.of(
            "update_private_key_tag",
            ActivityResource.PRIVATE_KEY,
            ActivityAction.UPDATE,
            new ActivityVersion(
                    ActivityType.UPDATE_PRIVATE_KEY_TAG, "updatePrivateKeyTagIntent", "updatePrivateKeyTagResult"));

    private final UserRepository tags;
    private final PrivateKeyRepository keys;

    public UpdatePrivateKeyTagHandler(UserRepository tags, PrivateKeyRepository keys) {
        this.tags = tags;
        this.keys = keys;
    }

    /** The validated parameters. */
    public record Intent(String privateKeyTagId, Optional<String> newName, List<String> add, List<String> remove) {}

    @Override
    public ActivitySpec spec() {
        return SPEC;
    }

    @Override
    public Intent parse(Params p) {
        return new Intent(
                p.requiredString("privateKeyTagId"),
                p.optionalString("newPrivateKeyTagName"),
                p.requiredIdsOrNone("addPrivateKeyIds"),
                p.requiredIdsOrNone("removePrivateKeyIds"));
    }

    @Override
    public Object execute(ActivityContext context, Intent intent) {
        String org = context.organizationId();
        Tag tag = tags.findTag(context.tx(), org, intent.privateKeyTagId())
                .filter(t -> t.type() == TagType.TAG_TYPE_PRIVATE_KEY)
                .orElseThrow(
                        () -> ApiException.notFound("no private key tag found with id " + intent.privateKeyTagId()));
        List<String> missing = keys.missing(
                context.tx(),
                org,
                Stream.concat(intent.add().stream(), intent.remove().stream()).toList());
        ApiException.requireNoneMissing("private key", missing);
        Optional<String> rename = intent.newName().filter(name -> !name.equals(tag.name()));
        if (rename.isPresent()
                && tags.findTagByName(context.tx(), org, TagType.TAG_TYPE_PRIVATE_KEY, rename.get())
                        .isPresent()) {
            throw ApiException.badRequest("a private key tag named '" + rename.get() + "' already exists");
        }
        rename.ifPresent(name -> tags.renameTag(context.tx(), tag.id(), name, context.now()));
        Set<String> members = new HashSet<>(keys.keysWithTag(context.tx(), tag.id()));
        for (String id : intent.remove()) {
            if (members.remove(id)) {
                keys.untag(context.tx(), tag.id(), id);
            }
        }
        for (String id : intent.add()) {
            if (members.add(id)) {
                keys.tag(context.tx(), tag.id(), id);
            }
        }
        return new Result(tag.id());
    }

    /** {@code updatePrivateKeyTagResult}. */
    public record Result(String privateKeyTagId) {}
}
