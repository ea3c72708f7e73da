package dev.keyhaven.server.signing;

import dev.keyhaven.crypto.Digests;
import dev.keyhaven.crypto.KeyCurve;
import dev.keyhaven.server.api.ApiException;

/**
 * What a key actually signs: a 32-byte digest (ECDSA) or the message itself (Ed25519). The rules for which
 * encoding and hash function each curve accepts, as the real service applies them:
 * <ul>
 * <li>Ed25519 hashes inside the signature, so it takes only {@code HASH_FUNCTION_NOT_APPLICABLE}, and only raw
 * payloads (hex or UTF-8); the Ethereum structured encodings are secp256k1-only.</li>
 * <li>ECDSA (secp256k1, P-256) needs a digest: {@code SHA256} or {@code KECCAK256} of the payload, or
 * {@code NO_OP} when the payload already is one (then it must be 32 bytes). {@code NOT_APPLICABLE} is refused.</li>
 * <li>EIP-712 and EIP-7702 payloads on secp256k1 are hashed as their standards say; {@code NO_OP} (what the
 * official viem and ethers signers send) and {@code KECCAK256} both mean that digest, {@code SHA256} is refused.</li>
 * </ul>
 */
sealed interface Signable {

    record Digest(byte[] digest) implements Signable {}

    record Message(byte[] message) implements Signable {}

    /** Applies the rules above, failing the activity with a message naming what does not fit. */
    static Signable of(KeyCurve curve, PayloadEncoding encoding, HashFunction hash, Payload payload) {
        String curveName = curve.wireName();
        if (curve == KeyCurve.ED25519) {
            if (hash != HashFunction.HASH_FUNCTION_NOT_APPLICABLE) {
                throw ApiException.badRequest("hash function " + hash.wireName() + " does not apply to " + curveName
                        + " keys, which hash as part of signing: use HASH_FUNCTION_NOT_APPLICABLE");
            }
            if (!(payload instanceof Payload.Raw raw)) {
                throw ApiException.badRequest("payload encoding " + encoding.wireName() + " needs a CURVE_SECP256K1 "
                        + "key, not " + curveName);
            }
            return new Message(raw.bytes());
        }
        if (hash == HashFunction.HASH_FUNCTION_NOT_APPLICABLE) {
            throw ApiException.badRequest("hash function HASH_FUNCTION_NOT_APPLICABLE is only for CURVE_ED25519 keys; "
                    + curveName + " signs a digest: use HASH_FUNCTION_NO_OP, HASH_FUNCTION_SHA256 or "
                    + "HASH_FUNCTION_KECCAK256");
        }
        return switch (payload) {
            case Payload.StructuredDigest structured -> {
                if (curve != KeyCurve.SECP256K1) {
                    throw ApiException.badRequest("payload encoding " + encoding.wireName()
                            + " needs a CURVE_SECP256K1 key, not " + curveName);
                }
                if (hash == HashFunction.HASH_FUNCTION_SHA256) {
                    throw ApiException.badRequest("payload encoding " + encoding.wireName() + " is hashed with "
                            + "keccak-256 as its standard says: use HASH_FUNCTION_NO_OP or HASH_FUNCTION_KECCAK256");
                }
                yield new Digest(structured.digest());
            }
            case Payload.Raw raw ->
                switch (hash) {
                    case HASH_FUNCTION_SHA256 -> new Digest(Digests.sha256(raw.bytes()));
                    case HASH_FUNCTION_KECCAK256 -> new Digest(Digests.keccak256(raw.bytes()));
                    case HASH_FUNCTION_NO_OP -> {
                        if (raw.bytes().length != 32) {
                            throw ApiException.badRequest(
                                    "with HASH_FUNCTION_NO_OP the payload is the digest to sign and "
                                            + "must be 32 bytes, not " + raw.bytes().length);
                        }
                        yield new Digest(raw.bytes());
                    }
                    case HASH_FUNCTION_NOT_APPLICABLE -> throw new IllegalStateException("refused above");
                };
        };
    }
}
