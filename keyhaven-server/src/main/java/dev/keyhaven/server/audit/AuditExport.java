package dev.keyhaven.server.audit;

import dev.keyhaven.client.AuditLogVerifier.Entry;
import dev.keyhaven.client.AuditLogVerifier.SignedHead;
import dev.keyhaven.server.tx.Transactor;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * {@code audit export}: an organization's chain and its signed heads as JSON Lines (entries in order, then the signed
 * heads), read in one transaction, for {@link dev.keyhaven.client.AuditLogVerifier#verifyFile}.
 */
public final class AuditExport {
    private final Transactor transactor;
    private final AuditLogRepository log;

    public AuditExport(Transactor transactor, AuditLogRepository log) {
        this.transactor = transactor;
        this.log = log;
    }

    /** What an export wrote. */
    public record Written(int entries, int signedHeads) {}

    /**
     * Writes the organization's chain to {@code out} (replacing it); an organization without entries writes none.
     *
     * @throws dev.keyhaven.client.AuditLogVerifier.BrokenChainException before writing anything, when the row of an
     *         entry that keeps only its content's hash is gone or was edited: there is no content to export for it
     */
    public Written write(String organizationId, Path out) {
        record Chain(List<Entry> entries, List<SignedHead> heads) {}
        Chain chain = transactor.read(tx -> new Chain(
                AuditEntries.withContent(log.entries(tx, organizationId)), log.signedHeads(tx, organizationId)));
        try (BufferedWriter writer = Files.newBufferedWriter(out, StandardCharsets.UTF_8)) {
            for (Entry entry : chain.entries()) {
                writer.write(entry.toJsonLine());
                writer.newLine();
            }
            for (SignedHead head : chain.heads()) {
                writer.write(head.toJsonLine());
                writer.newLine();
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + out, e);
        }
        return new Written(chain.entries().size(), chain.heads().size());
    }
}
