package dev.keyhaven.server.privatekey;

import dev.keyhaven.server.activity.ActivityHandler;
import dev.keyhaven.server.custody.Custody;
import dev.keyhaven.server.tx.Transactor;
import dev.keyhaven.server.user.UserLimits;
import dev.keyhaven.server.user.UserRepository;
import java.util.List;

/**
 * Private keys assembled: the activities that create and delete keys and their tags (tags live with the user tags,
 * in {@code tags}), and the queries that read them. {@link #creator()} also serves private-key imports.
 */
public final class PrivateKeyFeature {
    private final PrivateKeyCreator creator;
    private final PrivateKeyGenerator generator;
    private final PrivateKeyQueries queries;
    private final List<ActivityHandler<?>> handlers;

    public PrivateKeyFeature(
            Transactor transactor, PrivateKeyRepository keys, UserRepository tags, Custody custody, UserLimits limits) {
        this.creator = new PrivateKeyCreator(keys);
        this.queries = new PrivateKeyQueries(transactor, keys, tags);
        this.generator = new PrivateKeyGenerator(keys, new PrivateKeyTags(tags), custody);
        this.handlers = List.of(
                new CreatePrivateKeysHandler(generator),
                new DeletePrivateKeysHandler(keys),
                new CreatePrivateKeyTagHandler(tags, keys, limits),
                new UpdatePrivateKeyTagHandler(tags, keys),
                new DeletePrivateKeyTagsHandler(tags, keys));
    }

    public List<ActivityHandler<?>> handlers() {
        return handlers;
    }

    public PrivateKeyCreator creator() {
        return creator;
    }

    /** Generates keys in an organization (also the private keys of {@code create_sub_organization} V3). */
    public PrivateKeyGenerator generator() {
        return generator;
    }

    public PrivateKeyQueries queries() {
        return queries;
    }
}
