package dev.keyhaven.chains.tron;

import com.google.protobuf.ByteString;
import dev.keyhaven.chains.TransactionFormatException;
import dev.keyhaven.chains.tron.proto.RawTransaction;
import dev.keyhaven.chains.tron.proto.SignedTransaction;
import dev.keyhaven.crypto.Digests;
import dev.keyhaven.policy.Value;
import dev.keyhaven.policy.ValueType;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * An unsigned Tron transaction: the protobuf {@code Transaction.raw} that TronWeb returns as {@code raw_data_hex},
 * read strictly (see {@link StrictProtobuf}), holding exactly one contract.
 *
 * <p>Tron signs secp256k1 ECDSA over SHA-256 of the raw bytes, which is also the transaction id. The bytes are kept
 * exactly as received and never re-serialised, so the digest and the signed transaction are those of the caller's
 * bytes. Instances are immutable.
 */
public final class TronTransaction {
    /** {@code tron.tx}: what {@link #policyValue()} holds. */
    public static final ValueType POLICY_TYPE = TronPolicyType.TRANSACTION;

    /**
     * java-tron refuses transactions over 500 KiB; the raw part alone can be no larger. Bounding it here also
     * bounds the hex strings policies are given.
     */
    static final int MAX_RAW_BYTES = 500 * 1024;

    private static final HexFormat HEX = HexFormat.of();

    private final byte[] rawData;
    private final Value policyValue;

    private TronTransaction(byte[] rawData, Value policyValue) {
        this.rawData = rawData;
        this.policyValue = policyValue;
    }

    /**
     * Parses TronWeb's raw_data_hex bytes: the protobuf Transaction.raw.
     *
     * @throws TransactionFormatException when the bytes are not a canonical protobuf Transaction.raw with exactly
     *     one contract whose parameter's type URL names its type, with a field Keyhaven's schema lacks, or with an
     *     address that is not 21 bytes starting with 0x41
     */
    public static TronTransaction parse(byte[] rawData) {
        Objects.requireNonNull(rawData, "rawData");
        if (rawData.length > MAX_RAW_BYTES) {
            throw new TransactionFormatException(
                    "raw_data is " + rawData.length + " bytes; Tron transactions are at" + " most " + MAX_RAW_BYTES);
        }
        byte[] bytes = rawData.clone();
        RawTransaction raw = StrictProtobuf.parse(RawTransaction.parser(), bytes, "raw_data");
        // Tron's protocol has a list of contracts for a future that never came: nodes execute one per transaction.
        if (raw.getContractCount() != 1) {
            throw new TransactionFormatException(
                    "raw_data has " + raw.getContractCount() + " contracts; a Tron transaction has exactly one");
        }
        Value value = Value.struct(Map.of(
                "ref_block_bytes", Value.of(HEX.formatHex(raw.getRefBlockBytes().toByteArray())),
                "ref_block_hash", Value.of(HEX.formatHex(raw.getRefBlockHash().toByteArray())),
                "expiration", Value.of(raw.getExpiration()),
                "timestamp", Value.of(raw.getTimestamp()),
                "data", memo(raw.getData()),
                "fee_limit", Value.of(raw.getFeeLimit()),
                "contract", Value.list(List.of(ContractReader.read(raw.getContract(0), "contract[0]")))));
        return new TronTransaction(bytes, value);
    }

    /** SHA-256 of the raw bytes exactly as given: the transaction id, and the digest the key signs. */
    public byte[] signingDigest() {
        return Digests.sha256(rawData);
    }

    /**
     * The signed protobuf Transaction {raw_data = the raw bytes exactly as given, signature = [r‖s‖v]}, what
     * {@code /wallet/broadcasthex} and TronWeb's {@code sendHexTransaction} take.
     *
     * <p>v is the recovery id itself (0 or 1), as Turnkey's signatures end, rather than TronWeb's 27 or 28: java-tron
     * reads both, and TronWeb's {@code Trx.ecRecover} recovers the signer from both (ethers normalises v).
     *
     * @throws IllegalArgumentException when r or s is not 32 bytes or the recovery id is not 0 or 1
     */
    public byte[] signed(byte[] r32, byte[] s32, int recoveryId) {
        Objects.requireNonNull(r32, "r32");
        Objects.requireNonNull(s32, "s32");
        if (r32.length != 32 || s32.length != 32) {
            throw new IllegalArgumentException("r and s must be 32 bytes each");
        }
        if (recoveryId != 0 && recoveryId != 1) {
            throw new IllegalArgumentException("recoveryId must be 0 or 1, got " + recoveryId);
        }
        byte[] signature = new byte[65];
        System.arraycopy(r32, 0, signature, 0, 32);
        System.arraycopy(s32, 0, signature, 32, 32);
        signature[64] = (byte) recoveryId;
        return SignedTransaction.newBuilder()
                .setRawData(ByteString.copyFrom(rawData))
                .addSignature(ByteString.copyFrom(signature))
                .build()
                .toByteArray();
    }

    /** {@code tron.tx}, of type {@link #POLICY_TYPE}. */
    public Value policyValue() {
        return policyValue;
    }

    /**
     * The memo as text: TronWeb writes it from a UTF-8 string and explorers show it as one, so that is how a policy
     * compares it. Bytes that are not UTF-8 are still signed, but a policy reading them fails closed.
     */
    private static Value memo(ByteString data) {
        try {
            return Value.of(StandardCharsets.UTF_8
                    .newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(data.toByteArray()))
                    .toString());
        } catch (CharacterCodingException e) {
            return Value.unreadable("the memo (raw_data.data) is not UTF-8 text");
        }
    }
}
