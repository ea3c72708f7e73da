package dev.keyhaven.server.privatekey;

import dev.keyhaven.server.activity.AddressLog;
import dev.keyhaven.server.activity.CreatedAddress;
import dev.keyhaven.server.api.ApiException;
import dev.keyhaven.server.api.Ids;
import dev.keyhaven.server.custody.Custody;
import dev.keyhaven.server.custody.DerivedKey;
import dev.keyhaven.server.privatekey.PrivateKeyCreator.WireAddress;
import dev.keyhaven.server.tx.Tx;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Generates standalone keys in an organization, each with its addresses and tags, inside the caller's transaction:
 * {@code create_private_keys}, and the private keys of {@code create_sub_organization} V3 (in the new
 * sub-organization, in the transaction that creates it). Every key is created or, the transaction failing, none is.
 */
public final class PrivateKeyGenerator {
    private final PrivateKeyRepository keys;
    private final PrivateKeyTags tags;
    private final Custody custody;
    private final PrivateKeyCreator creator;

    public PrivateKeyGenerator(PrivateKeyRepository keys, PrivateKeyTags tags, Custody custody) {
        this.keys = keys;
        this.tags = tags;
        this.custody = custody;
        this.creator = new PrivateKeyCreator(keys);
    }

    /** Creates {@code wanted} in {@code organizationId}; each address is reported to {@code log}. */
    public List<Created> generate(
            Tx tx, String organizationId, List<PrivateKeyParams> wanted, Instant now, Ids ids, AddressLog log) {
        tags.lockOrganization(tx, organizationId);
        creator.requireRoomFor(tx, organizationId, wanted.size());
        Set<String> names = new HashSet<>();
        List<Created> created = new ArrayList<>(wanted.size());
        for (int i = 0; i < wanted.size(); i++) {
            PrivateKeyParams params = wanted.get(i);
            String label = "privateKeys[" + i + "]: ";
            if (!names.add(params.privateKeyName())) {
                throw ApiException.badRequest(
                        label + "a private key named '" + params.privateKeyName() + "' already exists");
            }
            creator.requireValid(
                    tx, organizationId, label, params.privateKeyName(), params.curve(), params.addressFormats());
            tags.requireAll(tx, organizationId, params.privateKeyTags());
            String id = ids.next();
            DerivedKey key = custody.createPrivateKey(tx, organizationId, id, params.curve());
            List<WireAddress> addresses = creator.store(
                    tx,
                    organizationId,
                    id,
                    params.privateKeyName(),
                    params.curve(),
                    params.addressFormats(),
                    key,
                    false,
                    now);
            params.privateKeyTags().forEach(tagId -> keys.tag(tx, tagId, id));
            addresses.forEach(a -> log.created(CreatedAddress.ofPrivateKey(organizationId, id, a.address())));
            created.add(new Created(id, addresses));
        }
        return List.copyOf(created);
    }

    /** {@code v1PrivateKeyResult}. */
    public record Created(String privateKeyId, List<WireAddress> addresses) {}
}
