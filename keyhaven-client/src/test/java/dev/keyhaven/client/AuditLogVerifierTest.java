package dev.keyhaven.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.keyhaven.client.AuditLogVerifier.BrokenChainException;
import dev.keyhaven.client.AuditLogVerifier.Entry;
import dev.keyhaven.client.AuditLogVerifier.SignedHead;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.Signature;
import java.security.interfaces.ECPublicKey;
import java.security.spec.ECGenParameterSpec;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The offline verifier: a chain built as the server builds it verifies; each kind of tampering names its entry. */
class AuditLogVerifierTest {
    private static final String ORG = "01a216a9-0000-7000-8000-000000000001";

    private final KeyPair identity = identity();

    private static KeyPair identity() {
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
            generator.initialize(new ECGenParameterSpec("secp256r1"));
            return generator.generateKeyPair();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    private String publicKeyHex() {
        ECPublicKey key = (ECPublicKey) identity.getPublic();
        return "04" + fixed(key.getW().getAffineX()) + fixed(key.getW().getAffineY());
    }

    private static String fixed(BigInteger coordinate) {
        String hex = coordinate.toString(16);
        return "0".repeat(64 - hex.length()) + hex;
    }

    private SignedHead sign(Entry head) throws GeneralSecurityException {
        Signature signer = Signature.getInstance("SHA256withECDSAinP1363Format");
        signer.initSign(identity.getPrivate());
        signer.update(AuditChain.headStatement(ORG, head.seq(), head.hash()).getBytes(StandardCharsets.UTF_8));
        return new SignedHead(ORG, head.seq(), head.hash(), HexFormat.of().formatHex(signer.sign()), "now");
    }

    private static List<Entry> chain(int length) {
        List<Entry> entries = new ArrayList<>();
        String prev = AuditChain.GENESIS;
        for (int seq = 1; seq <= length; seq++) {
            String content = "{\"status\":\"S" + seq + "\"}";
            String hash = AuditChain.entryHash(ORG, seq, "ACTIVITY_OUTCOME", "a" + seq, "a" + seq, content, prev);
            entries.add(new Entry(ORG, seq, "ACTIVITY_OUTCOME", "a" + seq, "a" + seq, content, prev, hash));
            prev = hash;
        }
        return entries;
    }

    @Test
    void aChainWithASignedHeadVerifiesFromItsExportFile(@TempDir Path directory) throws Exception {
        List<Entry> entries = chain(4);
        SignedHead head = sign(entries.get(2));
        Path file = directory.resolve("audit.jsonl");
        List<String> lines = new ArrayList<>();
        entries.forEach(e -> lines.add(e.toJsonLine()));
        lines.add(head.toJsonLine());
        Files.write(file, lines);

        assertThat(AuditLogVerifier.verifyFile(file, publicKeyHex())).isEqualTo(new AuditLogVerifier.Result(4, 1));
    }

    @Test
    void anAlteredEntryIsNamed() {
        List<Entry> entries = new ArrayList<>(chain(3));
        Entry second = entries.get(1);
        entries.set(
                1,
                new Entry(
                        ORG,
                        2,
                        second.kind(),
                        second.activityId(),
                        second.recordId(),
                        "{}",
                        second.prevHash(),
                        second.hash()));
        assertThatThrownBy(() -> AuditLogVerifier.verify(entries, List.of(), publicKeyHex()))
                .isInstanceOf(BrokenChainException.class)
                .hasMessage("organization " + ORG + " entry 2: its hash does not match its fields (the entry was "
                        + "altered)");
    }

    @Test
    void aDeletedOrReorderedEntryIsNamed() {
        List<Entry> deleted = new ArrayList<>(chain(3));
        deleted.remove(1);
        assertThatThrownBy(() -> AuditLogVerifier.verify(deleted, List.of(), publicKeyHex()))
                .hasMessage("organization " + ORG + " entry 3: expected entry 2 here (an entry was deleted, "
                        + "inserted or reordered)");

        List<Entry> swapped = new ArrayList<>(chain(3));
        swapped.add(1, swapped.remove(2));
        assertThatThrownBy(() -> AuditLogVerifier.verify(swapped, List.of(), publicKeyHex()))
                .hasMessage("organization " + ORG + " entry 3: expected entry 2 here (an entry was deleted, "
                        + "inserted or reordered)");
    }

    @Test
    void aTailCutBehindASignedHeadAndAForeignSignatureAreNamed() throws Exception {
        List<Entry> entries = chain(3);
        SignedHead head = sign(entries.get(2));
        assertThatThrownBy(() -> AuditLogVerifier.verify(entries.subList(0, 2), List.of(head), publicKeyHex()))
                .hasMessage("organization " + ORG + " signed head 3: the chain has no entry 3 (entries were deleted)");

        String otherKey = new AuditLogVerifierTest().publicKeyHex();
        assertThatThrownBy(() -> AuditLogVerifier.verify(entries, List.of(head), otherKey))
                .hasMessage("organization " + ORG + " signed head 3: the signature does not verify against the "
                        + "identity key");
    }

    @Test
    void aLineWithoutItsFieldIsRefusedByNumber(@TempDir Path directory) throws Exception {
        Path file = directory.resolve("audit.jsonl");
        Files.writeString(file, chain(1).getFirst().toJsonLine() + "\n{\"type\":\"entry\",\"seq\":2}\n");
        assertThatThrownBy(() -> AuditLogVerifier.verifyFile(file, publicKeyHex()))
                .isInstanceOf(BrokenChainException.class)
                .hasMessage("line 2 has no string organizationId");
    }
}
