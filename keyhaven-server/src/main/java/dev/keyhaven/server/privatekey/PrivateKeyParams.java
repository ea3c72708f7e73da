package dev.keyhaven.server.privatekey;

import dev.keyhaven.crypto.KeyCurve;
import dev.keyhaven.crypto.address.AddressFormat;
import dev.keyhaven.server.api.KeyVocabulary;
import dev.keyhaven.server.api.Params;
import java.util.LinkedHashSet;
import java.util.List;

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
}
