package dev.keyhaven.server.signing;

import dev.keyhaven.server.api.WireEnum;

/** What is done to the payload bytes before an ECDSA signature; Ed25519 takes no separate hash. */
public enum HashFunction implements WireEnum {
    /** The payload already is the 32-byte digest. */
    HASH_FUNCTION_NO_OP,
    HASH_FUNCTION_SHA256,
    HASH_FUNCTION_KECCAK256,
    /** Required for Ed25519, which hashes as part of signing (RFC 8032). */
    HASH_FUNCTION_NOT_APPLICABLE;

    @Override
    public String wireName() {
        return name();
    }
}
