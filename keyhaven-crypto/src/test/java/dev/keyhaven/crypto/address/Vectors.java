package dev.keyhaven.crypto.address;

import dev.keyhaven.crypto.KeyCurve;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.bouncycastle.crypto.params.Ed25519PrivateKeyParameters;

/** Reads the files under {@code vectors/address/} (sources in its README.md). */
final class Vectors {
    private static final Pattern TT = Pattern.compile("<tt>(.*?)</tt>");
    private static final Pattern BYTE_PREFIX = Pattern.compile("^0x([0-9A-Fa-f]{2}) \\+ ");
    private static final Pattern BYTE_SUFFIX = Pattern.compile("^ \\+ 0x([0-9A-Fa-f]{2})");

    private Vectors() {}

    static String text(String name) {
        try (InputStream in = Vectors.class.getResourceAsStream("/vectors/address/" + name)) {
            if (in == null) {
                throw new IllegalStateException("missing vector file " + name);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    static List<String> lines(String name) {
        return text(name).lines().toList();
    }

    /** Rows of a CSV file as header → value maps; lines starting with {@code #} are comments. */
    static List<Map<String, String>> csv(String name) {
        List<String> lines = lines(name).stream()
                .filter(l -> !l.isBlank() && !l.startsWith("#"))
                .toList();
        String[] header = lines.get(0).split(",", -1);
        List<Map<String, String>> rows = new ArrayList<>();
        for (String line : lines.subList(1, lines.size())) {
            String[] fields = line.split(",", -1);
            if (fields.length != header.length) {
                throw new IllegalStateException(name + ": wrong field count in " + line);
            }
            Map<String, String> row = new LinkedHashMap<>();
            for (int i = 0; i < header.length; i++) {
                row.put(header[i], fields[i]);
            }
            rows.add(row);
        }
        return rows;
    }

    /**
     * The {@code * …} items of a BIP mediawiki list that follows the line starting with {@code heading}, up to the next
     * blank-line-separated paragraph that is not a list item. Each item is its {@code <tt>} texts, with the non-printable
     * bytes written around them ({@code 0x20 + <tt>…</tt>}, {@code <tt>…</tt> + 0xFF}) put back in place.
     */
    static List<List<String>> bipList(String file, String heading) {
        List<String> lines = lines(file);
        int start = 0;
        while (!lines.get(start).startsWith(heading)) {
            start++;
        }
        List<List<String>> items = new ArrayList<>();
        for (int i = start + 1; i < lines.size(); i++) {
            String line = lines.get(i);
            if (line.startsWith("The following") || line.startsWith("=")) {
                break;
            }
            if (line.startsWith("* ")) {
                items.add(ttTexts(line.substring(2)));
            }
        }
        return items;
    }

    private static List<String> ttTexts(String item) {
        List<String> texts = new ArrayList<>();
        String prefix = "";
        Matcher before = BYTE_PREFIX.matcher(item);
        if (before.find()) {
            prefix = String.valueOf((char) Integer.parseInt(before.group(1), 16));
        }
        Matcher tt = TT.matcher(item);
        while (tt.find()) {
            String text = tt.group(1);
            Matcher after = BYTE_SUFFIX.matcher(item.substring(tt.end()));
            if (after.find()) {
                text += (char) Integer.parseInt(after.group(1), 16);
            }
            texts.add(texts.isEmpty() ? prefix + text : text);
        }
        return texts;
    }

    /** {@code key = value} lines of a BIP {@code <pre>} block, in order (keys repeat across accounts). */
    static List<String[]> preAssignments(String file) {
        List<String[]> out = new ArrayList<>();
        for (String line : lines(file)) {
            int eq = line.indexOf(" = ");
            if (eq > 0 && !line.trim().startsWith("//")) {
                // "address = base58check(prefix | addressBytes) = 2Mww…": the value is after the last " = ".
                String value = line.substring(line.lastIndexOf(" = ") + 3).trim();
                int space = value.indexOf(' ');
                out.add(new String[] {line.substring(0, eq).trim(), space < 0 ? value : value.substring(0, space)});
            }
        }
        return out;
    }

    /** A key spec of pubkey-vectors.csv as the public key bytes {@code curve} encoders take. */
    static byte[] publicKey(KeyCurve curve, String spec) {
        int colon = spec.indexOf(':');
        String kind = spec.substring(0, colon);
        String value = spec.substring(colon + 1);
        return switch (kind) {
            case "hex" -> HexFormat.of().parseHex(value.toLowerCase(Locale.ROOT));
            case "base64" -> Base64.getDecoder().decode(value);
            case "ed25519-seed-hex" -> ed25519FromSeed(HexFormat.of().parseHex(value));
            case "sui-keystore-base64" -> {
                byte[] flagged = Base64.getDecoder().decode(value);
                if (flagged[0] != 0 || flagged.length != 33) {
                    throw new IllegalStateException("not a flagged Ed25519 Sui secret key: " + value);
                }
                yield ed25519FromSeed(Arrays.copyOfRange(flagged, 1, 33));
            }
            default -> throw new IllegalStateException("unknown key kind " + kind + " for " + curve);
        };
    }

    static byte[] ed25519FromSeed(byte[] seed) {
        return new Ed25519PrivateKeyParameters(seed).generatePublicKey().getEncoded();
    }
}
