package dev.keyhaven.crypto.address;

import java.util.Locale;
import java.util.regex.Pattern;

/**
 * Maps the spellings of one address to one key. Only formats whose clients legitimately send other spellings are
 * normalised: hex addresses come back checksummed or not, and TON clients parse and re-print addresses with their
 * own flags. Case-sensitive encodings (base58, base32, bech32 as Turnkey emits it) pass through untouched.
 */
final class LookupKeys {
    private static final Pattern HEX_ADDRESS = Pattern.compile("0[xX]([0-9a-fA-F]{40}|[0-9a-fA-F]{64})");

    private LookupKeys() {}

    static String of(String address) {
        if (HEX_ADDRESS.matcher(address).matches()) {
            return address.toLowerCase(Locale.ROOT);
        }
        return TonAddress.parse(address)
                .map(raw -> TonAddress.friendly(raw.workchain(), raw.hash(), TonAddress.STRING_FORM))
                .orElse(address);
    }
}
