package dev.keyhaven.server.privatekey;

import dev.keyhaven.server.custody.SealedSecret;
import dev.keyhaven.server.tx.Tx;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Storage of private keys, their addresses and their tag memberships (the tags themselves are user tags' rows). */
public interface PrivateKeyRepository {

    void insert(Tx tx, PrivateKey key, SealedSecret sealedKey);

    int count(Tx tx, String organizationId);

    boolean nameTaken(Tx tx, String organizationId, String name);

    Optional<PrivateKey> find(Tx tx, String organizationId, String privateKeyId);

    /** The organization's private keys, oldest first. */
    List<PrivateKey> list(Tx tx, String organizationId);

    /** The ids among {@code privateKeyIds} that name no private key of the organization. */
    List<String> missing(Tx tx, String organizationId, Collection<String> privateKeyIds);

    /** The private key that has this address (compared by its lookup key), if any. */
    Optional<PrivateKey> findByAddress(Tx tx, String organizationId, String addressKey);

    SealedSecret sealedKey(Tx tx, String organizationId, String privateKeyId);

    /** Records that the key left custody (export_private_key). */
    void markExported(Tx tx, String organizationId, String privateKeyId, java.time.Instant updatedAt);

    /** Deletes the key with its addresses and tag memberships. */
    void delete(Tx tx, String organizationId, String privateKeyId);

    void tag(Tx tx, String tagId, String privateKeyId);

    void untag(Tx tx, String tagId, String privateKeyId);

    /** Removes a tag from every key (before the tag itself is deleted). */
    void untagAll(Tx tx, String tagId);

    /** The keys carrying a tag, oldest first. */
    List<String> keysWithTag(Tx tx, String tagId);

    /** The tag ids of each private key of the organization that has any. */
    Map<String, List<String>> tagIdsByKey(Tx tx, String organizationId);
}
