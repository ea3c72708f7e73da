package dev.keyhaven.crypto.eth;

import dev.keyhaven.crypto.Digests;
import dev.keyhaven.crypto.sign.Signature;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * An unsigned Ethereum transaction as wallets serialise it for signing: legacy ({@code rlp([nonce, gasPrice, gas,
 * to, value, data])}, or with {@code chainId, 0, 0} appended per EIP-155) or typed ({@code type ‖ rlp(fields)} for
 * EIP-2930 (1), EIP-1559 (2), EIP-4844 (3, without blob sidecars) and EIP-7702 (4)). The signing hash is Keccak-256
 * of exactly those bytes; the signed form puts the signature where each type wants it.
 *
 * <p>Parsing checks the field count, RLP well-formedness, and the shape of the fields policies read (canonical
 * integers of at most 32 bytes, a recipient of 20 bytes or none, calldata as a byte string), so that what a policy
 * was shown is exactly what is signed. Access lists, blob hashes and authorizations are only checked to be RLP.
 */
public final class EthereumTransaction {
    private static final int ADDRESS_LENGTH = 20;

    private final int type;
    private final byte[] unsigned;
    private final List<byte[]> fields;
    private final Layout layout;

    private EthereumTransaction(int type, byte[] unsigned, List<byte[]> fields) {
        this.type = type;
        this.unsigned = unsigned;
        this.fields = fields;
        this.layout = Layout.of(type, fields.size());
        checkFields();
    }

    /**
     * Where each field sits in the RLP list of a transaction type; -1 for a field the type does not have. The fee
     * fields are {@code gasPrice} for legacy and type 1, and the EIP-1559 pair from type 2 on.
     */
    private record Layout(
            int chainId,
            int nonce,
            int gasPrice,
            int maxPriorityFeePerGas,
            int maxFeePerGas,
            int gas,
            int to,
            int value,
            int data,
            int maxFeePerBlobGas) {
        static Layout of(int type, int fieldCount) {
            return switch (type) {
                case 0 -> new Layout(fieldCount == 9 ? 6 : -1, 0, 1, -1, -1, 2, 3, 4, 5, -1);
                case 1 -> new Layout(0, 1, 2, -1, -1, 3, 4, 5, 6, -1);
                case 3 -> new Layout(0, 1, -1, 2, 3, 4, 5, 6, 7, 9);
                default -> new Layout(0, 1, -1, 2, 3, 4, 5, 6, 7, -1);
            };
        }
    }

    private void checkFields() {
        chainId();
        nonce();
        gasPrice();
        maxPriorityFeePerGas();
        maxFeePerGas();
        gasLimit();
        value();
        maxFeePerBlobGas();
        data();
        Optional<byte[]> to = to();
        if (to.isPresent() && to.get().length != ADDRESS_LENGTH) {
            throw new IllegalArgumentException("to must be 20 bytes or empty, not " + to.get().length + " bytes");
        }
        if (to.isEmpty() && (type == 3 || type == 4)) {
            // EIP-4844 and EIP-7702 transactions cannot create contracts: nodes refuse them without a recipient.
            throw new IllegalArgumentException("a type 0x0" + type + " transaction must have a recipient (to)");
        }
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
            if (fields.size() == 9
                    && (RlpDecoder.integer(fields.get(7), "r").signum() != 0
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
            default ->
                throw new IllegalArgumentException("unknown transaction type 0x" + Integer.toHexString(first)
                        + " (expected legacy, 0x01, 0x02, 0x03 or 0x04)");
        };
        List<byte[]> fields = RlpDecoder.listItems(Arrays.copyOfRange(unsigned, 1, unsigned.length));
        if (fields.size() != expected) {
            throw new IllegalArgumentException(
                    "a type 0x0" + first + " transaction has " + expected + " fields, not " + fields.size());
        }
        return new EthereumTransaction(first, unsigned.clone(), fields);
    }

    /** 0 for legacy transactions, else the EIP-2718 type byte. */
    public int type() {
        return type;
    }

    /** The chain id; empty for a legacy transaction without EIP-155 replay protection, valid on every chain. */
    public Optional<BigInteger> chainId() {
        return optionalInteger(layout.chainId(), "chainId");
    }

    public BigInteger nonce() {
        return integer(layout.nonce(), "nonce");
    }

    /** The gas limit ({@code gas}). */
    public BigInteger gasLimit() {
        return integer(layout.gas(), "gas");
    }

    /** {@code gasPrice} of legacy and type 1 transactions; empty from type 2 on. */
    public Optional<BigInteger> gasPrice() {
        return optionalInteger(layout.gasPrice(), "gasPrice");
    }

    /** {@code maxPriorityFeePerGas} of type 2, 3 and 4 transactions; empty for legacy and type 1. */
    public Optional<BigInteger> maxPriorityFeePerGas() {
        return optionalInteger(layout.maxPriorityFeePerGas(), "maxPriorityFeePerGas");
    }

    /** {@code maxFeePerGas} of type 2, 3 and 4 transactions; empty for legacy and type 1. */
    public Optional<BigInteger> maxFeePerGas() {
        return optionalInteger(layout.maxFeePerGas(), "maxFeePerGas");
    }

    /** {@code maxFeePerBlobGas} of type 3 transactions; empty for the others. */
    public Optional<BigInteger> maxFeePerBlobGas() {
        return optionalInteger(layout.maxFeePerBlobGas(), "maxFeePerBlobGas");
    }

    /** The 20-byte recipient; empty for a contract creation. */
    public Optional<byte[]> to() {
        byte[] to = byteString(layout.to(), "to");
        return to.length == 0 ? Optional.empty() : Optional.of(to);
    }

    /** The wei sent. */
    public BigInteger value() {
        return integer(layout.value(), "value");
    }

    /** The calldata (or init code of a contract creation); empty for a plain transfer. */
    public byte[] data() {
        return byteString(layout.data(), "data");
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

    private BigInteger integer(int index, String name) {
        return RlpDecoder.integer(fields.get(index), name);
    }

    private Optional<BigInteger> optionalInteger(int index, String name) {
        return index < 0 ? Optional.empty() : Optional.of(integer(index, name));
    }

    /**
     * The payload of a byte-string item. {@link RlpDecoder#listItems} has already checked that the item is canonical
     * and exactly as long as its header says, so the payload is whatever follows the header.
     */
    private byte[] byteString(int index, String name) {
        byte[] item = fields.get(index);
        int prefix = item[0] & 0xff;
        if (prefix >= 0xc0) {
            throw new IllegalArgumentException(name + " must be a byte string, not a list");
        }
        int headerLength = prefix < 0x80 ? 0 : prefix <= 0xb7 ? 1 : 1 + prefix - 0xb7;
        return Arrays.copyOfRange(item, headerLength, item.length);
    }
}
