package dev.keyhaven.server.privatekey;

import dev.keyhaven.crypto.KeyCurve;
import dev.keyhaven.crypto.address.AddressFormat;
import dev.keyhaven.server.api.ApiException;
import dev.keyhaven.server.api.ErrorCode;
import dev.keyhaven.server.api.KeyVocabulary;
import dev.keyhaven.server.api.Params;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;

/** {@code v1PrivateKeyParams}: one key to generate, its tags and the address formats to show it in. */
public record PrivateKeyParams(
        String privateKeyName, KeyCurve curve, List<String> privateKeyTags, List<AddressFormat> addressFormats) {

    static PrivateKeyParams read(Params p) {
        return new PrivateKeyParams(
                p.requiredString("privateKeyName"),
                KeyVocabulary.requiredCurve(p, "curve"),
                p.requiredIdsOrNone("privateKeyTags"),
                List.copyOf(new LinkedHashSet<>(KeyVocabulary.requiredAddressFormats(p, "addressFormats"))));
    }

    /**
     * The keys of an organization that does not exist yet ({@code create_sub_organization} V3's
     * {@code privateKeys}), checked in full before anything is written, each problem naming its field: the names are
     * distinct, each address format suits the key's curve, and no key names a tag (a new organization has none, so
     * any tag id is a 404, as {@code create_private_keys} answers an unknown tag).
     */
    public static List<PrivateKeyParams> readForNewOrganization(Params p, String name) {
        Map<String, Integer> names = new HashMap<>();
        return p.requiredObjects(name, key -> {
            PrivateKeyParams params = read(key);
            int index = names.size();
            Integer earlier = names.putIfAbsent(params.privateKeyName(), index);
            if (earlier != null) {
                throw ApiException.badField(
                        key.pathOf("privateKeyName"),
                        "repeats the name of " + p.pathOf(name) + "[" + earlier + "]: private key names must be"
                                + " unique in the organization");
            }
            for (int i = 0; i < params.addressFormats().size(); i++) {
                AddressFormat format = params.addressFormats().get(i);
                if (!format.supports(params.curve())) {
                    throw ApiException.badField(
                            key.pathOf("addressFormats"),
                            "is invalid: address format " + format.wireName() + " does not support curve "
                                    + params.curve().wireName());
                }
            }
            if (!params.privateKeyTags().isEmpty()) {
                String field = key.pathOf("privateKeyTags") + "[0]";
                throw new ApiException(
                        ErrorCode.NOT_FOUND,
                        "no private key tag found with id "
                                + params.privateKeyTags().getFirst()
                                + " (a new sub-organization has no private key tags yet)",
                        field);
            }
            return params;
        });
    }
}
