package dev.keyhaven.client;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * The hashes of Keyhaven's tamper-evident activity log, shared by the server that appends to it and by
 * {@link AuditLogVerifier}, so that both compute them from one definition.
 *
 * <p>Each organization has one chain. An entry's hash is SHA-256 over the UTF-8 lines
 * {@code keyhaven-audit-entry-v1, organizationId, seq, kind, activityId, recordId, SHA-256(content), prevHash}
 * joined by {@code \n}; none of these fields can hold a line break (ids, a decimal number, an upper-case name and
 * lower-case hex), so the encoding is unambiguous. The first entry's {@code prevHash} is {@link #GENESIS}. A signed
 * head is the identity key's ECDSA-P256 signature over {@link #headStatement}.
 */
public final class AuditChain {
    /** The {@code prevHash} of an organization's first entry. */
    public static final String GENESIS = "0".repeat(64);

    private static final HexFormat HEX = HexFormat.of();

    private AuditChain() {}

    /** The hash of one entry, hex. {@code content} is the canonical JSON of what changed, as stored. */
    public static String entryHash(
            String organizationId,
            long seq,
            String kind,
            String activityId,
            String recordId,
            String content,
            String prevHash) {
        return linkHash(organizationId, seq, kind, activityId, recordId, sha256Hex(content), prevHash);
    }

    /**
     * The same hash from {@code contentHash}, the {@link #sha256Hex} of the content: an appender that hashed the
     * content beforehand only links it to the chain here.
     */
    public static String linkHash(
            String organizationId,
            long seq,
            String kind,
            String activityId,
            String recordId,
            String contentHash,
            String prevHash) {
        return sha256Hex(String.join(
                "\n",
                "keyhaven-audit-entry-v1",
                organizationId,
                Long.toString(seq),
                kind,
                activityId,
                recordId,
                contentHash,
                prevHash));
    }

    /** What the identity key signs for the head of an organization's chain. */
    public static String headStatement(String organizationId, long seq, String headHash) {
        return String.join("\n", "keyhaven-audit-head-v1", organizationId, Long.toString(seq), headHash);
    }

    /** SHA-256 of the UTF-8 bytes of {@code text}, lower-case hex. */
    public static String sha256Hex(String text) {
        try {
            return HEX.formatHex(MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }
}
