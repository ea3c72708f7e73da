package dev.keyhaven.crypto.eth;

import dev.keyhaven.crypto.Digests;
import dev.keyhaven.crypto.sign.Signature;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;

/**
 * An unsigned Ethereum transaction as wallets serialise it for signing: legacy ({@code rlp([nonce, gasPrice, gas,
 * to, value, data])}, or with {@code chainId, 0, 0} appended per EIP-155) or typed ({@code type ‖ rlp(fields)} for
 * EIP-2930 (1), EIP-1559 (2), EIP-4844 (3, without blob sidecars) and EIP-7702 (4)). The signing hash is Keccak-256
 * of exactly those bytes; the signed form puts the signature where each type wants it. Fields are checked for
 * count and RLP well-formedness only: what they mean is the chain's business.
 */
public final class EthereumTransaction {
    private final int type;
    private final byte[] unsigned;
    private final List<byte[]> fields;

    private EthereumTransaction(int type, byte[] unsigned, List<byte[]> fields) {
        this.type = type;
        this.unsigned = unsigned;
        this.fields = fields;
    }

    /**
     * Parses an unsigned transaction.
     *
     * @throws IllegalArgumentException naming what is wrong (unknown type, field count, malformed RLP)
     */
    public static EthereumTransaction parseUnsigned(byte[] unsigned) {
        if (unsigned.length == 0) {
            throw new IllegalArgumentException("the transaction is empty");
        }
        int first = unsigned[0] & 0xff;
        if (first >= 0xc0) {
            List<byte[]> fields = RlpDecoder.listItems(unsigned);
            if (fields.size() != 6 && fields.size() != 9) {
                throw new IllegalArgumentException("a legacy transaction has 6 fields (or 9 with the EIP-155 chain "
                        + "id), not " + fields.size());
            }
            if (fields.size() == 9 && (RlpDecoder.integer(fields.get(7), "r").signum() != 0
                    || RlpDecoder.integer(fields.get(8), "s").signum() != 0)) {
                throw new IllegalArgumentException("an unsigned EIP-155 transaction ends with chainId, 0, 0");
            }
            return new EthereumTransaction(0, unsigned.clone(), fields);
        }
        int expected = switch (first) {
            case 1 -> 8;
            case 2 -> 9;
            case 3 -> 11;
            case 4 -> 10;
            default -> throw new IllegalArgumentException("unknown transaction type 0x"
                    + Integer.toHexString(first) + " (expected legacy, 0x01, 0x02, 0x03 or 0x04)");
        };
        List<byte[]> fields = RlpDecoder.listItems(java.util.Arrays.copyOfRange(unsigned, 1, unsigned.length));
        if (fields.size() != expected) {
            throw new IllegalArgumentException("a type 0x0" + first + " transaction has " + expected
                    + " fields, not " + fields.size());
        }
        RlpDecoder.integer(fields.getFirst(), "chainId");
        return new EthereumTransaction(first, unsigned.clone(), fields);
    }

    /** 0 for legacy transactions, else the EIP-2718 type byte. */
    public int type() {
        return type;
    }

    /** What the key signs: Keccak-256 of the unsigned serialisation. */
    public byte[] signingHash() {
        return Digests.keccak256(unsigned);
    }

    /** The signed serialisation, ready to broadcast. */
    public byte[] withSignature(Signature signature) {
        byte[] r = Rlp.encodeInteger(new BigInteger(1, signature.r()));
        byte[] s = Rlp.encodeInteger(new BigInteger(1, signature.s()));
        List<byte[]> items = new ArrayList<>(fields);
        if (type == 0) {
            BigInteger v;
            if (fields.size() == 9) {
                BigInteger chainId = RlpDecoder.integer(fields.get(6), "chainId");
                items = new ArrayList<>(fields.subList(0, 6));
                v = chainId.shiftLeft(1).add(BigInteger.valueOf(35L + signature.v()));
            } else {
                v = BigInteger.valueOf(27L + signature.v());
            }
            items.add(Rlp.encodeInteger(v));
            items.add(r);
            items.add(s);
            return Rlp.encodeList(items.toArray(byte[][]::new));
        }
        items.add(Rlp.encodeInteger(BigInteger.valueOf(signature.v())));
        items.add(r);
        items.add(s);
        byte[] body = Rlp.encodeList(items.toArray(byte[][]::new));
        byte[] out = new byte[1 + body.length];
        out[0] = (byte) type;
        System.arraycopy(body, 0, out, 1, body.length);
        return out;
    }
}
