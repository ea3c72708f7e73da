package dev.keyhaven.server.smartcontract;

import dev.keyhaven.crypto.address.Base58Text;
import dev.keyhaven.server.api.ApiException;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * Contract addresses as interfaces are stored and found: an Ethereum address ({@code 0x} and 40 hex digits) compares
 * in any letter case, so its key is lower case; a Solana program id is a base58 32-byte key and compares exactly.
 */
public final class ContractAddresses {
    private static final Pattern ETHEREUM = Pattern.compile("0x[0-9a-fA-F]{40}");
    /** A 32-byte key is 32 to 44 base58 characters; anything longer is refused before decoding. */
    private static final int MAX_SOLANA_LENGTH = 44;

    private ContractAddresses() {}

    /**
     * The lookup key of {@code address} for {@code type}.
     *
     * @throws ApiException 400 naming {@code field} when the address is not one of that chain
     */
    static String key(SmartContractInterfaceType type, String address, String field) {
        return switch (type) {
            case SMART_CONTRACT_INTERFACE_TYPE_ETHEREUM -> {
                if (!ETHEREUM.matcher(address).matches()) {
                    throw ApiException.badField(field, "must be an Ethereum address: 0x and 40 hexadecimal digits");
                }
                yield ethereumKey(address);
            }
            case SMART_CONTRACT_INTERFACE_TYPE_SOLANA -> {
                if (!isSolanaKey(address)) {
                    throw ApiException.badField(field, "must be a Solana program id: a base58 32-byte key");
                }
                yield address;
            }
        };
    }

    /** The key of an Ethereum address (an {@code eth.tx.to}). */
    public static String ethereumKey(String address) {
        return address.toLowerCase(Locale.ROOT);
    }

    private static boolean isSolanaKey(String address) {
        if (address.isEmpty() || address.length() > MAX_SOLANA_LENGTH) {
            return false;
        }
        try {
            return Base58Text.decode(address).length == 32;
        } catch (IllegalArgumentException notBase58) {
            return false;
        }
    }
}
