package dev.keyhaven.chains.bitcoin;

import dev.keyhaven.chains.TransactionFormatException;
import fr.acinq.bitcoin.Protocol;
import fr.acinq.bitcoin.Transaction;
import fr.acinq.bitcoin.io.ByteArrayInput;
import fr.acinq.bitcoin.io.ByteArrayOutput;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The key-value framing of a BIP-174 (version 0) PSBT: the magic, then a global map, one map per input and one per
 * output of the unsigned transaction, each a run of (compact-size key length, key, compact-size value length, value)
 * closed by a zero byte. Read here, before bitcoin-kmp reads what the entries mean, because kmp's reader recurses once
 * per entry and copies the entries read so far at each one (a map of many small entries overflows the stack or takes
 * quadratic time), throws undeclared exceptions on a truncated compact size, and reports failures without a position.
 * Here every length is checked against the bytes that remain before anything is taken, entries per map and the
 * unsigned transaction's size are bounded, keys are unique within a map, and errors name the map and the byte offset.
 *
 * <p>The entries are also what {@link #differenceFrom} compares, to prove that what kmp writes back holds exactly
 * what it was given.
 */
final class PsbtLayout {
    /** Far above any real map (a 20-key multisig input has about 45 entries), low enough for kmp's recursion. */
    static final int MAX_ENTRIES_PER_MAP = 1_000;
    /** Bitcoin Core relays no transaction over 400 000 weight units, which is 100 000 bytes without witnesses. */
    static final int MAX_UNSIGNED_TX_BYTES = 100_000;

    private static final byte[] MAGIC = {0x70, 0x73, 0x62, 0x74, (byte) 0xff};
    private static final ByteBuffer UNSIGNED_TX_KEY = ByteBuffer.wrap(new byte[] {0x00});

    /** One map: its name in messages ("global map", "input 2", "output 0"), where it starts, and its entries. */
    record KeyValueMap(String name, int offset, Map<ByteBuffer, ByteBuffer> entries) {
        KeyValueMap {
            entries = Collections.unmodifiableMap(entries);
        }

        /** Whether any key has this key type (keys whose type is one byte, which every type below 0xfd is). */
        boolean hasKeyType(int keyType) {
            return entries.keySet().stream().anyMatch(key -> (key.get(0) & 0xff) == keyType);
        }
    }

    private final KeyValueMap global;
    private final List<KeyValueMap> inputs;
    private final List<KeyValueMap> outputs;
    private final Transaction unsignedTransaction;

    private PsbtLayout(
            KeyValueMap global, List<KeyValueMap> inputs, List<KeyValueMap> outputs, Transaction unsignedTransaction) {
        this.global = global;
        this.inputs = List.copyOf(inputs);
        this.outputs = List.copyOf(outputs);
        this.unsignedTransaction = unsignedTransaction;
    }

    /**
     * Reads the framing of {@code psbt} and, from the global map, the unsigned transaction (which says how many input
     * and output maps follow).
     *
     * @throws TransactionFormatException naming the map and byte offset of the first thing that is wrong
     */
    static PsbtLayout read(byte[] psbt) {
        Cursor cursor = new Cursor(psbt);
        cursor.requireMagic();
        KeyValueMap global = cursor.readMap("global map");
        Transaction tx = unsignedTransaction(global);
        List<KeyValueMap> inputs = new ArrayList<>();
        for (int i = 0; i < tx.txIn.size(); i++) {
            inputs.add(cursor.readMap("input " + i));
        }
        List<KeyValueMap> outputs = new ArrayList<>();
        for (int i = 0; i < tx.txOut.size(); i++) {
            outputs.add(cursor.readMap("output " + i));
        }
        cursor.requireEnd();
        return new PsbtLayout(global, inputs, outputs, tx);
    }

    Transaction unsignedTransaction() {
        return unsignedTransaction;
    }

    KeyValueMap input(int index) {
        return inputs.get(index);
    }

    /**
     * What differs between these maps and {@code rewritten}'s (what bitcoin-kmp wrote for this PSBT), once the
     * entries {@code addedToInputs} (input index to entries) are put into this PSBT's input maps: empty when nothing
     * else differs, so a PSBT handed back after signing differs from the one received only by the signatures.
     */
    Optional<String> differenceFrom(PsbtLayout rewritten, Map<Integer, Map<ByteBuffer, ByteBuffer>> addedToInputs) {
        if (rewritten.inputs.size() != inputs.size() || rewritten.outputs.size() != outputs.size()) {
            return Optional.of("the rewritten PSBT has other numbers of input or output maps");
        }
        Optional<String> difference = difference(global, global.entries(), rewritten.global);
        for (int i = 0; i < inputs.size() && difference.isEmpty(); i++) {
            Map<ByteBuffer, ByteBuffer> expected =
                    new LinkedHashMap<>(inputs.get(i).entries());
            expected.putAll(addedToInputs.getOrDefault(i, Map.of()));
            difference = difference(inputs.get(i), expected, rewritten.inputs.get(i));
        }
        for (int i = 0; i < outputs.size() && difference.isEmpty(); i++) {
            difference = difference(outputs.get(i), outputs.get(i).entries(), rewritten.outputs.get(i));
        }
        return difference;
    }

    private static Optional<String> difference(
            KeyValueMap original, Map<ByteBuffer, ByteBuffer> expected, KeyValueMap rewritten) {
        Map<ByteBuffer, ByteBuffer> actual = rewritten.entries();
        if (expected.equals(actual)) {
            return Optional.empty();
        }
        ByteBuffer key = expected.entrySet().stream()
                .filter(e -> !e.getValue().equals(actual.get(e.getKey())))
                .map(Map.Entry::getKey)
                .findFirst()
                .orElseGet(() -> actual.keySet().stream()
                        .filter(k -> !expected.containsKey(k))
                        .findFirst()
                        .orElseThrow());
        return Optional.of(String.format("%s: the entry of key type 0x%02x", original.name(), key.get(0) & 0xff));
    }

    private static Transaction unsignedTransaction(KeyValueMap global) {
        ByteBuffer value = global.entries().get(UNSIGNED_TX_KEY);
        if (value == null) {
            throw new TransactionFormatException(
                    "global map: no unsigned transaction (key type 0x00 with no key data)");
        }
        if (value.remaining() > MAX_UNSIGNED_TX_BYTES) {
            throw new TransactionFormatException("global map: the unsigned transaction is " + value.remaining()
                    + " bytes, more than the " + MAX_UNSIGNED_TX_BYTES + " of the largest standard transaction");
        }
        byte[] bytes = bytes(value);
        Transaction tx;
        try {
            tx = Transaction.read(
                    new ByteArrayInput(bytes),
                    Protocol.PROTOCOL_VERSION | Transaction.SERIALIZE_TRANSACTION_NO_WITNESS);
        } catch (RuntimeException e) {
            throw new TransactionFormatException(
                    "global map: the unsigned transaction cannot be read as a " + "transaction without witnesses", e);
        }
        ByteArrayOutput written = new ByteArrayOutput();
        Transaction.write(tx, written, Protocol.PROTOCOL_VERSION | Transaction.SERIALIZE_TRANSACTION_NO_WITNESS);
        int used = written.toByteArray().length;
        if (used != bytes.length) {
            throw new TransactionFormatException(
                    "global map: " + (bytes.length - used) + " bytes follow the unsigned transaction in its value");
        }
        return tx;
    }

    static byte[] bytes(ByteBuffer buffer) {
        byte[] out = new byte[buffer.remaining()];
        buffer.duplicate().get(out);
        return out;
    }

    /** Optional value of the entry whose key is the single byte {@code keyType}. */
    static Optional<byte[]> value(KeyValueMap map, int keyType) {
        ByteBuffer value = map.entries().get(ByteBuffer.wrap(new byte[] {(byte) keyType}));
        return Optional.ofNullable(value).map(PsbtLayout::bytes);
    }

    /** Reads forward through the PSBT, never past its end. */
    private static final class Cursor {
        private final byte[] data;
        private int position;

        Cursor(byte[] data) {
            this.data = data;
        }

        void requireMagic() {
            if (data.length < MAGIC.length
                    || !ByteBuffer.wrap(data, 0, MAGIC.length).equals(ByteBuffer.wrap(MAGIC))) {
                throw new TransactionFormatException("not a PSBT: it does not start with the magic bytes 'psbt' 0xff");
            }
            position = MAGIC.length;
        }

        KeyValueMap readMap(String name) {
            int start = position;
            Map<ByteBuffer, ByteBuffer> entries = new LinkedHashMap<>();
            while (true) {
                int keyOffset = position;
                int keyLength = length(name, "key");
                if (keyLength == 0) {
                    return new KeyValueMap(name, start, entries);
                }
                ByteBuffer key = take(keyLength);
                int valueLength = length(name, "value");
                ByteBuffer value = take(valueLength);
                if (entries.size() == MAX_ENTRIES_PER_MAP) {
                    throw new TransactionFormatException(name + ": more than " + MAX_ENTRIES_PER_MAP
                            + " entries (the map starts at byte " + start + ")");
                }
                if (entries.putIfAbsent(key, value) != null) {
                    throw new TransactionFormatException(
                            name + ": the key at byte " + keyOffset + " repeats an earlier key of the same map");
                }
            }
        }

        void requireEnd() {
            if (position != data.length) {
                throw new TransactionFormatException(
                        "byte " + position + ": " + (data.length - position) + " bytes follow the last output map");
            }
        }

        /** A compact size that must fit in what remains after it (a map's closing zero is a length of 0). */
        private int length(String name, String what) {
            int at = position;
            if (at >= data.length) {
                throw new TransactionFormatException(name + ": ends at byte " + at + " before its closing 0x00");
            }
            int first = data[position++] & 0xff;
            int size = first < 0xfd ? 0 : first == 0xfd ? 2 : first == 0xfe ? 4 : 8;
            if (data.length - position < size) {
                throw new TransactionFormatException(
                        name + ": the " + what + " length at byte " + at + " is cut off by the end of the PSBT");
            }
            long value = first < 0xfd ? first : 0;
            for (int i = 0; i < size; i++) {
                value |= (long) (data[position++] & 0xff) << (8 * i);
            }
            long minimum = size == 0 ? 0 : size == 2 ? 0xfd : size == 4 ? 0x1_0000L : 0x1_0000_0000L;
            if (value < minimum) {
                throw new TransactionFormatException(
                        name + ": the " + what + " length at byte " + at + " is not in its shortest encoding");
            }
            if (value < 0 || value > data.length - position) {
                throw new TransactionFormatException(name + ": the " + what + " at byte " + at + " declares "
                        + Long.toUnsignedString(value) + " bytes but " + (data.length - position) + " remain");
            }
            return (int) value;
        }

        private ByteBuffer take(int length) {
            ByteBuffer slice = ByteBuffer.wrap(data, position, length).slice();
            position += length;
            return slice;
        }
    }
}
