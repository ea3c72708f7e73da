package dev.keyhaven.chains.bitcoin;

import static dev.keyhaven.chains.bitcoin.Fixtures.HEX;

import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A well-formed PSBT as its maps (global, inputs, outputs) of hex key to hex value, to edit entries and write back:
 * for PSBTs no library would build (a non_witness_utxo of another transaction, a redeem script of another output) and
 * for vectors published as bare transactions (BIP-143, BIP-341).
 */
final class PsbtMaps {
    final List<Map<String, String>> maps;

    private PsbtMaps(List<Map<String, String>> maps) {
        this.maps = maps;
    }

    /** Reads a PSBT known to be well formed (a fixture). */
    static PsbtMaps of(byte[] psbt) {
        List<Map<String, String>> maps = new ArrayList<>();
        int[] at = {5};
        while (at[0] < psbt.length) {
            Map<String, String> map = new LinkedHashMap<>();
            while (true) {
                int keyLength = (int) compactSize(psbt, at);
                if (keyLength == 0) {
                    break;
                }
                String key = HEX.formatHex(psbt, at[0], at[0] + keyLength);
                at[0] += keyLength;
                int valueLength = (int) compactSize(psbt, at);
                map.put(key, HEX.formatHex(psbt, at[0], at[0] + valueLength));
                at[0] += valueLength;
            }
            maps.add(map);
        }
        return new PsbtMaps(maps);
    }

    /** A PSBT of an unsigned transaction (hex, no witnesses) with these input maps and empty output maps. */
    static PsbtMaps of(String unsignedTx, List<Map<String, String>> inputs, int outputs) {
        List<Map<String, String>> maps = new ArrayList<>();
        maps.add(new LinkedHashMap<>(Map.of("00", unsignedTx)));
        inputs.forEach(input -> maps.add(new LinkedHashMap<>(input)));
        for (int i = 0; i < outputs; i++) {
            maps.add(new LinkedHashMap<>());
        }
        return new PsbtMaps(maps);
    }

    Map<String, String> global() {
        return maps.get(0);
    }

    Map<String, String> input(int index) {
        return maps.get(1 + index);
    }

    byte[] write() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(HEX.parseHex("70736274ff"));
        for (Map<String, String> map : maps) {
            map.forEach((key, value) -> {
                writeCompactSize(out, key.length() / 2);
                out.writeBytes(HEX.parseHex(key));
                writeCompactSize(out, value.length() / 2);
                out.writeBytes(HEX.parseHex(value));
            });
            out.write(0);
        }
        return out.toByteArray();
    }

    /** A witness_utxo value: 8-byte little-endian amount and the length-prefixed script. */
    static String txOut(long amount, String script) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (int i = 0; i < 8; i++) {
            out.write((int) (amount >>> (8 * i)));
        }
        writeCompactSize(out, script.length() / 2);
        out.writeBytes(HEX.parseHex(script));
        return HEX.formatHex(out.toByteArray());
    }

    private static long compactSize(byte[] data, int[] at) {
        int first = data[at[0]++] & 0xff;
        int size = first < 0xfd ? 0 : first == 0xfd ? 2 : first == 0xfe ? 4 : 8;
        long value = first < 0xfd ? first : 0;
        for (int i = 0; i < size; i++) {
            value |= (long) (data[at[0]++] & 0xff) << (8 * i);
        }
        return value;
    }

    static void writeCompactSize(ByteArrayOutputStream out, long value) {
        if (value < 0xfd) {
            out.write((int) value);
        } else if (value <= 0xffff) {
            out.write(0xfd);
            out.write((int) value);
            out.write((int) (value >>> 8));
        } else {
            out.write(0xfe);
            for (int i = 0; i < 4; i++) {
                out.write((int) (value >>> (8 * i)));
            }
        }
    }
}
