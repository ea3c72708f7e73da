package dev.keyhaven.client;

import dev.keyhaven.crypto.EcCurve;
import dev.keyhaven.crypto.VerifyingKey;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * Verifies Keyhaven's tamper-evident activity log offline: the JSON Lines that {@code keyhaven audit export} writes
 * (one {@code "type":"entry"} line per entry, in order, then one {@code "type":"signedHead"} line per signed head),
 * against the identity public key you pinned (the one boot proofs are signed with; {@code serve} prints it).
 *
 * <p>Every entry must follow the one before it (its {@code seq} is the next number and its {@code prevHash} is that
 * entry's hash), its hash must be the hash of its fields ({@link AuditChain#entryHash}), and every signed head must be
 * signed by the pinned key and name the hash of an entry in the chain. An edit, deletion, insertion or reordering of
 * entries up to the last signed head is therefore detected; entries after it are only as trustworthy as the file.
 */
public final class AuditLogVerifier {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HexFormat HEX = HexFormat.of();

    /** One entry of an organization's chain. {@code content} is the canonical JSON of what changed. */
    public record Entry(
            String organizationId,
            long seq,
            String kind,
            String activityId,
            String recordId,
            String content,
            String prevHash,
            String hash) {

        /** The hash its fields give (equal to {@link #hash} unless the entry was altered). */
        public String computedHash() {
            return AuditChain.entryHash(organizationId, seq, kind, activityId, recordId, content, prevHash);
        }

        /** The entry as one line of the export. */
        public String toJsonLine() {
            ObjectNode line = JSON.createObjectNode()
                    .put("type", "entry")
                    .put("organizationId", organizationId)
                    .put("seq", seq)
                    .put("kind", kind)
                    .put("activityId", activityId)
                    .put("recordId", recordId)
                    .put("content", content)
                    .put("prevHash", prevHash)
                    .put("hash", hash);
            return JSON.writeValueAsString(line);
        }
    }

    /** The identity key's signature ({@code r ‖ s}, hex) over {@link AuditChain#headStatement}. */
    public record SignedHead(String organizationId, long seq, String headHash, String signature, String signedAt) {
        public String toJsonLine() {
            ObjectNode line = JSON.createObjectNode()
                    .put("type", "signedHead")
                    .put("organizationId", organizationId)
                    .put("seq", seq)
                    .put("headHash", headHash)
                    .put("signature", signature)
                    .put("signedAt", signedAt);
            return JSON.writeValueAsString(line);
        }
    }

    /** What a verification checked. */
    public record Result(int entries, int signedHeads) {}

    /** The log does not verify; the message names the first entry (or signed head) found wrong. */
    public static final class BrokenChainException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        public BrokenChainException(String message) {
            super(message);
        }
    }

    private AuditLogVerifier() {}

    /** Verifies an export file against the pinned identity public key (P-256, hex, either SEC1 form). */
    public static Result verifyFile(Path jsonLines, String pinnedIdentityKey) {
        List<Entry> entries = new ArrayList<>();
        List<SignedHead> heads = new ArrayList<>();
        try (BufferedReader reader = Files.newBufferedReader(jsonLines, StandardCharsets.UTF_8)) {
            String line;
            int number = 0;
            while ((line = reader.readLine()) != null) {
                number++;
                if (!line.isBlank()) {
                    readLine(line, number, entries, heads);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + jsonLines, e);
        }
        return verify(entries, heads, pinnedIdentityKey);
    }

    private static void readLine(String line, int number, List<Entry> entries, List<SignedHead> heads) {
        JsonNode node;
        try {
            node = JSON.readTree(line);
        } catch (JacksonException e) {
            throw new BrokenChainException("line " + number + " is not JSON");
        }
        switch (text(node, "type", number)) {
            case "entry" ->
                entries.add(new Entry(
                        text(node, "organizationId", number),
                        number(node, "seq", number),
                        text(node, "kind", number),
                        text(node, "activityId", number),
                        text(node, "recordId", number),
                        text(node, "content", number),
                        text(node, "prevHash", number),
                        text(node, "hash", number)));
            case "signedHead" ->
                heads.add(new SignedHead(
                        text(node, "organizationId", number),
                        number(node, "seq", number),
                        text(node, "headHash", number),
                        text(node, "signature", number),
                        text(node, "signedAt", number)));
            default -> throw new BrokenChainException("line " + number + " has an unknown type");
        }
    }

    private static String text(JsonNode node, String field, int line) {
        JsonNode value = node.get(field);
        if (value == null || !value.isString()) {
            throw new BrokenChainException("line " + line + " has no string " + field);
        }
        return value.asString();
    }

    private static long number(JsonNode node, String field, int line) {
        JsonNode value = node.get(field);
        if (value == null || !value.isIntegralNumber()) {
            throw new BrokenChainException("line " + line + " has no integer " + field);
        }
        return value.asLong();
    }

    /**
     * Verifies the chains of {@code entries} (each organization's in order of appearance) and the signed heads.
     *
     * @throws BrokenChainException naming the first entry or signed head that is wrong
     */
    public static Result verify(List<Entry> entries, List<SignedHead> signedHeads, String pinnedIdentityKey) {
        Map<String, List<Entry>> chains = new LinkedHashMap<>();
        for (Entry entry : entries) {
            chains.computeIfAbsent(entry.organizationId(), id -> new ArrayList<>())
                    .add(entry);
        }
        for (List<Entry> chain : chains.values()) {
            verifyChain(chain);
        }
        VerifyingKey identity = identityKey(pinnedIdentityKey);
        for (SignedHead head : signedHeads) {
            verifyHead(head, chains.getOrDefault(head.organizationId(), List.of()), identity);
        }
        return new Result(entries.size(), signedHeads.size());
    }

    /** Checks that each entry of one organization's chain follows the one before it and hashes to its hash. */
    public static void verifyChain(List<Entry> chain) {
        long expectedSeq = 1;
        String prevHash = AuditChain.GENESIS;
        for (Entry entry : chain) {
            String where = "organization " + entry.organizationId() + " entry " + entry.seq();
            if (entry.seq() != expectedSeq) {
                throw new BrokenChainException(where + ": expected entry " + expectedSeq
                        + " here (an entry was deleted, inserted or reordered)");
            }
            if (!entry.prevHash().equals(prevHash)) {
                throw new BrokenChainException(where + ": its prevHash is not the hash of entry " + (expectedSeq - 1)
                        + " (an entry was altered, deleted, inserted or reordered)");
            }
            if (!entry.computedHash().equals(entry.hash())) {
                throw new BrokenChainException(where + ": its hash does not match its fields (the entry was altered)");
            }
            prevHash = entry.hash();
            expectedSeq++;
        }
    }

    /** Checks a signed head's signature and that the chain has that hash at that position. */
    public static void verifyHead(SignedHead head, List<Entry> chain, VerifyingKey identity) {
        String where = "organization " + head.organizationId() + " signed head " + head.seq();
        if (!signatureVerifies(identity, head)) {
            throw new BrokenChainException(where + ": the signature does not verify against the identity key");
        }
        Optional<Entry> signed =
                chain.stream().filter(e -> e.seq() == head.seq()).findFirst();
        if (signed.isEmpty()) {
            throw new BrokenChainException(
                    where + ": the chain has no entry " + head.seq() + " (entries were deleted)");
        }
        if (!signed.get().hash().equals(head.headHash())) {
            throw new BrokenChainException(
                    where + ": entry " + head.seq() + " is not the entry that was signed (the chain was rewritten)");
        }
    }

    /** The identity public key (P-256, hex, compressed or uncompressed) as a verifier of signed heads. */
    public static VerifyingKey identityKey(String publicKeyHex) {
        try {
            return VerifyingKey.ecdsaSha256(EcCurve.P256, EcCurve.P256.decompress(HEX.parseHex(publicKeyHex)));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("the identity key is not a P-256 public key in hex", e);
        }
    }

    private static boolean signatureVerifies(VerifyingKey identity, SignedHead head) {
        byte[] raw;
        try {
            raw = HEX.parseHex(head.signature());
        } catch (IllegalArgumentException e) {
            return false;
        }
        if (raw.length != 64) {
            return false;
        }
        return identity.verify(
                AuditChain.headStatement(head.organizationId(), head.seq(), head.headHash())
                        .getBytes(StandardCharsets.UTF_8),
                VerifyingKey.derFromRaw(EcCurve.P256, raw));
    }
}
