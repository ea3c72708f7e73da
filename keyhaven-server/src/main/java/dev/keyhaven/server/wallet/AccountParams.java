package dev.keyhaven.server.wallet;

import dev.keyhaven.crypto.KeyCurve;
import dev.keyhaven.crypto.address.AddressFormat;
import dev.keyhaven.crypto.hd.DerivationPath;
import dev.keyhaven.server.api.ApiException;
import dev.keyhaven.server.api.KeyVocabulary;
import dev.keyhaven.server.api.Params;
import java.util.Optional;

/**
 * {@code v1WalletAccountParams}: which key to derive and how to show it. The curve and address format must suit each
 * other; that is checked when the account is created (a mismatch fails the activity naming both).
 */
public record AccountParams(
        KeyCurve curve, String path, DerivationPath derivation, AddressFormat addressFormat, Optional<String> name) {

    static final String PATH_FORMAT_BIP32 = "PATH_FORMAT_BIP32";

    public static AccountParams read(Params p) {
        KeyCurve curve = KeyVocabulary.requiredCurve(p, "curve");
        String pathFormat = p.requiredString("pathFormat");
        if (!PATH_FORMAT_BIP32.equals(pathFormat)) {
            throw ApiException.badField(
                    p.pathOf("pathFormat"),
                    "has unknown value '" + abbreviate(pathFormat) + "' (expected one of " + PATH_FORMAT_BIP32 + ")");
        }
        String path = p.requiredString("path");
        DerivationPath derivation;
        try {
            derivation = DerivationPath.parse(path);
        } catch (IllegalArgumentException e) {
            throw ApiException.badField(p.pathOf("path"), "is not a valid BIP-32 path: " + e.getMessage());
        }
        return new AccountParams(
                curve,
                path,
                derivation,
                KeyVocabulary.requiredAddressFormat(p, "addressFormat"),
                p.optionalString("name"));
    }

    private static String abbreviate(String value) {
        return value.length() <= 64 ? value : value.substring(0, 64) + "…";
    }
}
