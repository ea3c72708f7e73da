package dev.keyhaven.crypto.eth;

import dev.keyhaven.crypto.Digests;
import java.math.BigInteger;
import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;

/** EIP-7702 set-code authorization: keccak256(0x05 ‖ rlp([chain_id, address, nonce])). */
public final class Eip7702 {
    /** EIP-7702's MAGIC byte that keeps authorizations apart from transactions and other signed payloads. */
    private static final byte MAGIC = 0x05;

    private Eip7702() {}

    /**
     * The digest an EOA signs to delegate its code to {@code address20}. A chain id of 0 means "valid on every
     * chain", which the EIP allows.
     *
     * @throws IllegalArgumentException when chainId is not in [0, 2^256), the address is not 20 bytes, or the nonce
     *     is not in [0, 2^64) (the bounds the EIP sets)
     */
    public static byte[] authorizationDigest(BigInteger chainId, byte[] address20, BigInteger nonce) {
        Objects.requireNonNull(chainId, "chainId");
        Objects.requireNonNull(address20, "address20");
        Objects.requireNonNull(nonce, "nonce");
        if (chainId.signum() < 0 || chainId.bitLength() > 256) {
            throw new IllegalArgumentException("chainId must be in [0, 2^256)");
        }
        if (address20.length != 20) {
            throw new IllegalArgumentException("address must be 20 bytes");
        }
        if (nonce.signum() < 0 || nonce.bitLength() > 64) {
            throw new IllegalArgumentException("nonce must be in [0, 2^64)");
        }
        byte[] rlp = Rlp.encodeList(Rlp.encodeInteger(chainId), Rlp.encodeBytes(address20), Rlp.encodeInteger(nonce));
        byte[] data = new byte[1 + rlp.length];
        data[0] = MAGIC;
        System.arraycopy(rlp, 0, data, 1, rlp.length);
        return Digests.keccak256(data);
    }

    /**
     * From the JSON payload that {@code @turnkey/viem} sends: {@code {"address":"0x…","chainId":<number or numeric
     * string>,"nonce":<number or numeric string>}} already parsed into a Map. {@code contractAddress}, viem's older
     * name for the field, is accepted when {@code address} is absent.
     *
     * @throws IllegalArgumentException naming the bad field
     */
    public static byte[] authorizationDigest(Map<String, Object> authorization) {
        Objects.requireNonNull(authorization, "authorization");
        String addressField = authorization.get("address") == null && authorization.get("contractAddress") != null
                ? "contractAddress"
                : "address";
        byte[] address = field(addressField, () -> EthValues.address(authorization.get(addressField)));
        BigInteger chainId = field("chainId", () -> EthValues.integer(authorization.get("chainId")));
        BigInteger nonce = field("nonce", () -> EthValues.integer(authorization.get("nonce")));
        return authorizationDigest(chainId, address, nonce);
    }

    private static <T> T field(String name, Supplier<T> read) {
        try {
            return read.get();
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(name + " " + e.getMessage(), e);
        }
    }
}
