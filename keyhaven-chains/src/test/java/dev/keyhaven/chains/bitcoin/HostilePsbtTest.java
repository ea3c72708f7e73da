package dev.keyhaven.chains.bitcoin;

import static dev.keyhaven.chains.bitcoin.Fixtures.HEX;
import static dev.keyhaven.chains.bitcoin.Fixtures.KEY;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.fail;

import dev.keyhaven.chains.TransactionFormatException;
import dev.keyhaven.crypto.address.BitcoinNetwork;
import java.io.ByteArrayOutputStream;
import java.util.Arrays;
import java.util.Collections;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Bytes no honest client sends: whatever they are, reading them and asking what the key signs ends in a result or a
 * {@link TransactionFormatException}, never another exception, a hang or an allocation the bytes do not pay for.
 */
class HostilePsbtTest {

    @Test
    void everyTruncationOfEveryVectorIsRefused() {
        for (byte[] psbt : Fixtures.allPsbts()) {
            for (int length = 0; length < psbt.length; length++) {
                byte[] cut = Arrays.copyOf(psbt, length);
                assertThatThrownBy(() -> PartiallySignedTransaction.parse(cut))
                        .as("cut to %d of %d bytes", length, psbt.length)
                        .isInstanceOf(TransactionFormatException.class);
            }
        }
    }

    @Test
    void byteFlipsInEveryVectorGiveAResultOrATransactionFormatException() {
        Random random = new Random(20_260_401);
        for (byte[] psbt : Fixtures.allPsbts()) {
            for (int round = 0; round < 300; round++) {
                byte[] flipped = psbt.clone();
                for (int flips = 1 + random.nextInt(3); flips > 0; flips--) {
                    flipped[random.nextInt(flipped.length)] ^= (byte) (1 << random.nextInt(8));
                }
                readFully(flipped);
            }
        }
    }

    @Test
    void randomBytesAfterTheMagicAreRefused() {
        Random random = new Random(7);
        for (int round = 0; round < 2_000; round++) {
            byte[] noise = new byte[5 + random.nextInt(400)];
            random.nextBytes(noise);
            System.arraycopy(HEX.parseHex("70736274ff"), 0, noise, 0, 5);
            readFully(noise);
        }
    }

    @Test
    void hugeLengthsAndCountsAreRefusedBeforeAnythingIsAllocated() {
        String magic = "70736274ff";
        for (String hostile : new String[] {
            magic + "ff" + "ffffffffffffffff", // a key of 2^64 - 1 bytes
            magic + "01" + "00" + "fe" + "ffffff7f", // a value of 2^31 - 1 bytes
            magic + "01" + "00" + "fd" + "0200" + "0200", // a length not in its shortest encoding
            // an unsigned transaction claiming 2^32 - 1 inputs
            magic + "01" + "00" + "0a" + "02000000" + "feffffffff" + "00" + "00",
            magic + "01" + "00" + "00", // an empty unsigned transaction
        }) {
            assertThatThrownBy(() -> PartiallySignedTransaction.parse(HEX.parseHex(hostile)))
                    .as(hostile)
                    .isInstanceOf(TransactionFormatException.class);
        }
    }

    @Test
    void aMapOfMoreThanAThousandEntriesIsRefusedBeforeBitcoinKmpRecursesThroughIt() {
        PsbtMaps p2wpkh = PsbtMaps.of(Fixtures.named("p2wpkh").psbt());
        for (int i = 0; i <= PsbtLayout.MAX_ENTRIES_PER_MAP; i++) {
            p2wpkh.input(0).put(String.format("fc%08x", i), "");
        }

        assertThatThrownBy(() -> PartiallySignedTransaction.parse(p2wpkh.write()))
                .isInstanceOf(TransactionFormatException.class)
                .hasMessageStartingWith("input 0: more than 1000 entries");
    }

    @Test
    void aRepeatedKeyIsRefusedWithItsOffset() {
        byte[] psbt = Fixtures.named("p2wpkh").psbt();
        // The input map's first entry written twice.
        PsbtMaps maps = PsbtMaps.of(psbt);
        String key = maps.input(0).keySet().iterator().next();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] written = maps.write();
        int inputStart =
                indexOf(written, HEX.parseHex(String.format("%02x", key.length() / 2) + key), psbtGlobalLength(maps));
        out.write(written, 0, inputStart);
        byte[] entry = entry(key, maps.input(0).get(key));
        out.writeBytes(entry);
        out.write(written, inputStart, written.length - inputStart);

        assertThatThrownBy(() -> PartiallySignedTransaction.parse(out.toByteArray()))
                .isInstanceOf(TransactionFormatException.class)
                .hasMessage("input 0: the key at byte " + (inputStart + entry.length)
                        + " repeats an earlier key of the same map");
    }

    @Test
    void moreThanFiveHundredInputsAreRefused() {
        String input = "00".repeat(32) + "00000000" + "00" + "ffffffff";
        StringBuilder tx = new StringBuilder("02000000" + "fdf501");
        for (int i = 0; i < 501; i++) {
            tx.append(input.substring(0, 62))
                    .append(String.format("%02x", i & 0xff))
                    .append(input.substring(64));
        }
        tx.append("01").append("0000000000000000").append("00").append("00000000");
        byte[] psbt = PsbtMaps.of(tx.toString(), Collections.nCopies(501, Map.of()), 1)
                .write();

        assertThatThrownBy(() -> PartiallySignedTransaction.parse(psbt))
                .isInstanceOf(TransactionFormatException.class)
                .hasMessageContaining("at most 500 inputs");
    }

    private static void readFully(byte[] psbt) {
        try {
            PartiallySignedTransaction parsed = PartiallySignedTransaction.parse(psbt);
            parsed.policyValue(Optional.of(BitcoinNetwork.MAINNET));
            parsed.policyValue(Optional.empty());
            parsed.inputsSpendableBy(KEY);
        } catch (TransactionFormatException expected) {
            // Refused, as hostile bytes should be.
        } catch (RuntimeException | StackOverflowError | OutOfMemoryError e) {
            fail("not a TransactionFormatException for " + HEX.formatHex(psbt), e);
        }
    }

    private static byte[] entry(String key, String value) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        PsbtMaps.writeCompactSize(out, key.length() / 2);
        out.writeBytes(HEX.parseHex(key));
        PsbtMaps.writeCompactSize(out, value.length() / 2);
        out.writeBytes(HEX.parseHex(value));
        return out.toByteArray();
    }

    private static int psbtGlobalLength(PsbtMaps maps) {
        int length = 5;
        for (var e : maps.global().entrySet()) {
            length += entry(e.getKey(), e.getValue()).length;
        }
        return length + 1;
    }

    private static int indexOf(byte[] data, byte[] part, int from) {
        for (int i = from; i <= data.length - part.length; i++) {
            if (Arrays.equals(data, i, i + part.length, part, 0, part.length)) {
                return i;
            }
        }
        throw new IllegalStateException("not found");
    }
}
