package dev.keyhaven.server.privatekey;

import dev.keyhaven.server.api.ApiException;
import dev.keyhaven.server.api.Caller;
import dev.keyhaven.server.api.Params;
import dev.keyhaven.server.api.WireTime;
import dev.keyhaven.server.tx.Transactor;
import dev.keyhaven.server.tx.Tx;
import dev.keyhaven.server.user.TagType;
import dev.keyhaven.server.user.UserRepository;
import dev.keyhaven.server.user.WireViews;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** The read side of private keys: list_private_keys, get_private_key, list_private_key_tags. */
public final class PrivateKeyQueries {
    private final Transactor transactor;
    private final PrivateKeyRepository keys;
    private final UserRepository tags;

    public PrivateKeyQueries(Transactor transactor, PrivateKeyRepository keys, UserRepository tags) {
        this.transactor = transactor;
        this.keys = keys;
        this.tags = tags;
    }

    /** {@code v1PrivateKey}. */
    public record WirePrivateKey(
            String privateKeyId,
            String publicKey,
            String privateKeyName,
            String curve,
            List<PrivateKeyCreator.WireAddress> addresses,
            List<String> privateKeyTags,
            WireTime createdAt,
            WireTime updatedAt,
            boolean exported,
            boolean imported) {}

    /** {@code list_private_keys {organizationId}} → {@code {privateKeys}}, oldest first. */
    public Map<String, Object> listPrivateKeys(Caller caller, Params body) {
        return Map.of("privateKeys", transactor.read(tx -> privateKeys(tx, caller.organizationId())));
    }

    /** The organization's private keys in wire form, oldest first, read within {@code tx}. */
    public List<WirePrivateKey> privateKeys(Tx tx, String organizationId) {
        Map<String, List<String>> tagIds = keys.tagIdsByKey(tx, organizationId);
        return keys.list(tx, organizationId).stream()
                .map(k -> view(k, tagIds.getOrDefault(k.id(), List.of())))
                .toList();
    }

    /** {@code get_private_key {organizationId, privateKeyId}} → {@code {privateKey}}. */
    public Map<String, Object> getPrivateKey(Caller caller, Params body) {
        String id = body.requiredString("privateKeyId");
        String org = caller.organizationId();
        return Map.of(
                "privateKey",
                transactor
                        .read(tx -> keys.find(tx, org, id)
                                .map(k -> view(k, keys.tagIdsByKey(tx, org).getOrDefault(id, List.of()))))
                        .orElseThrow(() -> ApiException.notFound("no private key found with id " + id)));
    }

    /** {@code list_private_key_tags {organizationId}} → {@code {privateKeyTags}}. */
    public Map<String, Object> listPrivateKeyTags(Caller caller, Params body) {
        return Map.of(
                "privateKeyTags",
                transactor
                        .read(tx -> tags.tags(tx, caller.organizationId(), Optional.of(TagType.TAG_TYPE_PRIVATE_KEY)))
                        .stream()
                        .map(WireViews::tag)
                        .toList());
    }

    static WirePrivateKey view(PrivateKey k, List<String> tagIds) {
        return new WirePrivateKey(
                k.id(),
                k.publicKey(),
                k.name(),
                k.curve().wireName(),
                k.addresses().stream()
                        .map(a -> new PrivateKeyCreator.WireAddress(a.format().wireName(), a.address()))
                        .toList(),
                tagIds,
                WireTime.of(k.createdAt()),
                WireTime.of(k.updatedAt()),
                k.exported(),
                k.imported());
    }
}
