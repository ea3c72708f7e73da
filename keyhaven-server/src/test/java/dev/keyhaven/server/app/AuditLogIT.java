package dev.keyhaven.server.app;

import static dev.keyhaven.server.testing.ApiErrors.apiError;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.keyhaven.client.Activity;
import dev.keyhaven.client.AuditChain;
import dev.keyhaven.client.AuditLogVerifier;
import dev.keyhaven.client.AuditLogVerifier.BrokenChainException;
import dev.keyhaven.client.Requests.PrivateKeyParams;
import dev.keyhaven.client.Requests.WalletAccountParams;
import dev.keyhaven.server.api.ErrorCode;
import dev.keyhaven.server.testing.NonRootUser;
import dev.keyhaven.server.testing.OnBothStores;
import dev.keyhaven.server.testing.StoreKind;
import dev.keyhaven.server.testing.SubOrganization;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;
import tools.jackson.databind.JsonNode;

/**
 * The tamper-evident activity log: both write paths (the activity engine's transaction and signing's grouped short
 * write) append to one unbroken chain per organization, and {@code audit verify} finds a result edited in place, an
 * entry deleted, two swapped, one inserted, and a tail cut off behind a signed head; an export verifies offline.
 * Every tampering is undone before the test ends, so the class shares one server per store.
 */
class AuditLogIT extends OnBothStores {

    private record Run(int exitCode, String out, String err) {}

    private Run audit(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine command = Main.commandLine();
        command.setOut(new PrintWriter(out, true));
        command.setErr(new PrintWriter(err, true));
        List<String> all = new ArrayList<>(List.of(args));
        all.addAll(List.of("--data-dir", server.dataDirectory().toString()));
        if (store == StoreKind.POSTGRES) {
            all.addAll(List.of("--db-url", server.databaseUrl()));
        }
        int code = command.execute(all.toArray(String[]::new));
        return new Run(code, out.toString().strip(), err.toString().strip());
    }

    private Connection db() throws SQLException {
        return DriverManager.getConnection(server.databaseUrl());
    }

    private static long count(Connection db, String sql, Object... args) throws SQLException {
        try (PreparedStatement query = db.prepareStatement(sql)) {
            for (int i = 0; i < args.length; i++) {
                query.setObject(i + 1, args[i]);
            }
            try (ResultSet rs = query.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }

    private static void execute(Connection db, String sql, Object... args) throws SQLException {
        try (PreparedStatement update = db.prepareStatement(sql)) {
            for (int i = 0; i < args.length; i++) {
                update.setObject(i + 1, args[i]);
            }
            update.executeUpdate();
        }
    }

    /** A signing activity (the grouped short write): its id. */
    private String signSomething() {
        Activity keys = root.createPrivateKeys(
                List.of(new PrivateKeyParams("audit-" + System.nanoTime(), "CURVE_SECP256K1", List.of(), List.of())));
        String privateKeyId =
                keys.result().path("privateKeys").get(0).path("privateKeyId").asString();
        Activity signed = root.signRawPayload(
                privateKeyId, "42".repeat(32), "PAYLOAD_ENCODING_HEXADECIMAL", "HASH_FUNCTION_NO_OP");
        assertThat(signed.isCompleted()).isTrue();
        return signed.id();
    }

    /**
     * Runs {@code audit verify} and counts what it should report, until nothing moved while it ran: the server's head
     * signer ({@code AuditHeadSigner.INTERVAL}) may add a signed head between the verifier's read and the count.
     */
    private Verified verify() throws SQLException {
        for (int attempt = 1; ; attempt++) {
            String before = verifiedLine();
            Run run = audit("audit", "verify");
            String after = verifiedLine();
            if (before.equals(after) || attempt == 3) {
                return new Verified(run, after);
            }
        }
    }

    /** A run of {@code audit verify} and the line the database's counts say it prints. */
    private record Verified(Run run, String expected) {}

    private String verifiedLine() throws SQLException {
        try (Connection db = db()) {
            return "audit log verified: " + count(db, "SELECT COUNT(*) FROM audit_entries") + " entries in "
                    + count(db, "SELECT COUNT(DISTINCT organization_id) FROM audit_entries") + " organizations, "
                    + count(db, "SELECT COUNT(*) FROM audit_signed_heads") + " signed heads";
        }
    }

    private List<String> kinds(Connection db, String activityId) throws SQLException {
        List<String> kinds = new ArrayList<>();
        try (PreparedStatement query =
                db.prepareStatement("SELECT kind FROM audit_entries WHERE activity_id = ? ORDER BY seq")) {
            query.setString(1, activityId);
            try (ResultSet rs = query.executeQuery()) {
                while (rs.next()) {
                    kinds.add(rs.getString(1));
                }
            }
        }
        return kinds;
    }

    /** For each entry of the activity, in order: whether it keeps its "content" or only its content's "hash". */
    private List<String> kept(Connection db, String activityId) throws SQLException {
        List<String> kept = new ArrayList<>();
        try (PreparedStatement query = db.prepareStatement(
                "SELECT content, content_hash FROM audit_entries WHERE activity_id = ? ORDER BY seq")) {
            query.setString(1, activityId);
            try (ResultSet rs = query.executeQuery()) {
                while (rs.next()) {
                    String content = rs.getString(1);
                    String hash = rs.getString(2);
                    assertThat(content == null).isNotEqualTo(hash == null);
                    kept.add(content != null ? "content" : "hash");
                }
            }
        }
        return kept;
    }

    private static String text(Connection db, String sql, Object... args) throws SQLException {
        try (PreparedStatement query = db.prepareStatement(sql)) {
            for (int i = 0; i < args.length; i++) {
                query.setObject(i + 1, args[i]);
            }
            try (ResultSet rs = query.executeQuery()) {
                assertThat(rs.next()).isTrue();
                return rs.getString(1);
            }
        }
    }

    private Run brokenBy(String expected) {
        Run run = audit("audit", "verify");
        assertThat(run.err()).isEqualTo("audit log broken: organization " + server.organizationId() + " " + expected);
        assertThat(run.exitCode()).isEqualTo(AuditCommand.BROKEN);
        assertThat(run.out()).isEmpty();
        return run;
    }

    @Test
    void bothWritePathsAppendAndACleanLogVerifiesNamingItsCount() throws Exception {
        String signed = signSomething();
        Activity wallet = root.createWallet("audited", List.of(WalletAccountParams.ethereum(0)));
        try (Connection db = db()) {
            // Signing's one short write: the activity and its vote, already decided.
            assertThat(kinds(db, signed)).containsExactly("ACTIVITY_CREATED", "VOTE");
            // The activity engine's transaction: recorded, voted on, then its outcome.
            assertThat(kinds(db, wallet.id())).containsExactly("ACTIVITY_CREATED", "VOTE", "ACTIVITY_OUTCOME");
            // Rows that never change afterwards (a signature recorded complete; every vote) keep only their hash.
            assertThat(kept(db, signed)).containsExactly("hash", "hash");
            assertThat(kept(db, wallet.id())).containsExactly("content", "hash", "content");
        }
        Verified verified = verify();
        assertThat(verified.run().err()).isEmpty();
        assertThat(verified.run().out()).isEqualTo(verified.expected());
        assertThat(verified.run().exitCode()).isZero();
    }

    @Test
    void votesAndEachOutcomeOfAnActivityThatWaitedForConsensusAreChained() throws Exception {
        NonRootUser alice = NonRootUser.create(root, "alice-" + System.nanoTime());
        Activity policy = root.createPolicy(
                "root approves alice's tags " + System.nanoTime(),
                "EFFECT_ALLOW",
                "activity.resource == 'USER' && activity.action == 'CREATE' && activity.type == "
                        + "'ACTIVITY_TYPE_CREATE_USER_TAG'",
                "approvers.any(user, user.id == '" + server.rootUserId() + "')",
                "",
                null);
        assertThat(policy.status()).isEqualTo("ACTIVITY_STATUS_COMPLETED");
        Activity approvedLater = alice.client().createUserTag("approved-" + System.nanoTime(), List.of());
        Activity rejectedLater = alice.client().createUserTag("rejected-" + System.nanoTime(), List.of());
        assertThat(approvedLater.status()).isEqualTo("ACTIVITY_STATUS_CONSENSUS_NEEDED");
        assertThat(root.approveActivity(approvedLater.fingerprint(), "createUserTagResult")
                        .status())
                .isEqualTo("ACTIVITY_STATUS_COMPLETED");
        assertThat(root.rejectActivity(rejectedLater.fingerprint(), "createUserTagResult")
                        .status())
                .isEqualTo("ACTIVITY_STATUS_REJECTED");
        try (Connection db = db()) {
            assertThat(kinds(db, approvedLater.id()))
                    .containsExactly("ACTIVITY_CREATED", "VOTE", "ACTIVITY_OUTCOME", "VOTE", "ACTIVITY_OUTCOME");
            assertThat(kinds(db, rejectedLater.id()))
                    .containsExactly("ACTIVITY_CREATED", "VOTE", "ACTIVITY_OUTCOME", "VOTE", "ACTIVITY_OUTCOME");
        }
        Verified verified = verify();
        assertThat(verified.run().err()).isEmpty();
        assertThat(verified.run().out()).isEqualTo(verified.expected());
        assertThat(verified.run().exitCode()).isZero();
    }

    /**
     * A sub-organization that deletes itself loses its row, which held its chain's head, inside the deleting
     * activity; that activity's outcome is recorded after the deletion and must still end the sub-organization's
     * chain, or {@code audit verify} would report the completed activity's row as edited behind the log's back.
     */
    @Test
    void aSubOrganizationThatDeletesItselfEndsItsChainWithTheDeletionsOutcome() throws Exception {
        SubOrganization sub = SubOrganization.create(root, "audited-sub-" + System.nanoTime());
        String subId = sub.id();
        Activity deleted = sub.client()
                .submit(
                        "delete_sub_organization",
                        "ACTIVITY_TYPE_DELETE_SUB_ORGANIZATION",
                        Map.of(),
                        "deleteSubOrganizationResult");
        assertThat(deleted.status()).isEqualTo("ACTIVITY_STATUS_COMPLETED");
        try (Connection db = db()) {
            assertThat(kinds(db, deleted.id())).containsExactly("ACTIVITY_CREATED", "VOTE", "ACTIVITY_OUTCOME");
            assertThat(count(db, "SELECT COUNT(*) FROM organizations WHERE id = ?", subId))
                    .isZero();
            assertThat(count(db, "SELECT MAX(seq) FROM audit_entries WHERE organization_id = ?", subId))
                    .isEqualTo(count(db, "SELECT COUNT(*) FROM audit_entries WHERE organization_id = ?", subId));
        }
        Verified verified = verify();
        assertThat(verified.run().err()).isEmpty();
        assertThat(verified.run().out()).isEqualTo(verified.expected());
        assertThat(verified.run().exitCode()).isZero();
    }

    @Test
    void getAuditLogPagesTheChainWithLinksAReaderCanCheckAndRefusesABadPage() throws Exception {
        String signed = signSomething();
        String org = server.organizationId();
        JsonNode ofActivity = root.query("get_audit_log", Map.of("organizationId", org, "activityId", signed));
        JsonNode entries = ofActivity.path("entries");
        assertThat(entries).hasSize(2);
        assertThat(List.of(
                        entries.get(0).path("kind").asString(),
                        entries.get(1).path("kind").asString()))
                .containsExactly("ACTIVITY_CREATED", "VOTE");
        for (JsonNode entry : entries) {
            // Both entries keep only their hash in the store; the answer gives their rows as the content.
            assertThat(entry.path("contentHash").asString())
                    .isEqualTo(AuditChain.sha256Hex(entry.path("content").asString()));
            assertThat(entry.path("hash").asString())
                    .isEqualTo(AuditChain.entryHash(
                            org,
                            entry.path("seq").asLong(),
                            entry.path("kind").asString(),
                            entry.path("activityId").asString(),
                            entry.path("recordId").asString(),
                            entry.path("content").asString(),
                            entry.path("prevHash").asString()));
        }
        assertThat(entries.get(1).path("prevHash").asString())
                .isEqualTo(entries.get(0).path("hash").asString());
        try (Connection db = db()) {
            assertThat(ofActivity.path("head").path("seq").asLong())
                    .isEqualTo(count(db, "SELECT audit_seq FROM organizations WHERE id = ?", org));
        }

        JsonNode first = root.query("get_audit_log", Map.of("organizationId", org, "limit", 1));
        assertThat(first.path("entries")).hasSize(1);
        assertThat(first.path("entries").get(0).path("seq").asLong()).isEqualTo(1);
        assertThat(first.path("entries").get(0).path("prevHash").asString()).isEqualTo(AuditChain.GENESIS);
        JsonNode second = root.query("get_audit_log", Map.of("organizationId", org, "afterSeq", 1, "limit", 1));
        assertThat(second.path("entries").get(0).path("prevHash").asString())
                .isEqualTo(first.path("entries").get(0).path("hash").asString());

        apiError(
                ErrorCode.BAD_REQUEST,
                "limit",
                () -> root.query("get_audit_log", Map.of("organizationId", org, "limit", 0)));
        apiError(
                ErrorCode.BAD_REQUEST,
                "limit",
                () -> root.query("get_audit_log", Map.of("organizationId", org, "limit", 501)));
        apiError(
                ErrorCode.BAD_REQUEST,
                "afterSeq",
                () -> root.query("get_audit_log", Map.of("organizationId", org, "afterSeq", -1)));
    }

    @Test
    void aSignatureEditedInPlaceNoLongerHashesToItsEntry() throws Exception {
        String signed = signSomething();
        try (Connection db = db()) {
            long created = count(
                    db, "SELECT seq FROM audit_entries WHERE record_id = ? AND kind = 'ACTIVITY_CREATED'", signed);
            String original = text(db, "SELECT result FROM activities WHERE id = ?", signed);
            // The first hex digit of r, changed: to 0, or to 1 when it is 0 already (one signature in 16).
            int digit = original.indexOf("\"r\":\"") + 5;
            String forged = original.substring(0, digit)
                    + (original.charAt(digit) == '0' ? '1' : '0')
                    + original.substring(digit + 1);
            assertThat(forged).isNotEqualTo(original);
            execute(db, "UPDATE activities SET result = ? WHERE id = ?", forged, signed);
            try {
                brokenBy("entry " + created + ": activity " + signed
                        + " does not match the hash its entry keeps (the row was edited)");
            } finally {
                execute(db, "UPDATE activities SET result = ? WHERE id = ?", original, signed);
            }
        }
        assertThat(audit("audit", "verify").exitCode()).isZero();
    }

    /** The hash a vote's entry keeps, altered while the row still matches the original: the entry was altered. */
    @Test
    void anAlteredKeptHashIsDetectedThoughItsRowIsIntact() throws Exception {
        String signed = signSomething();
        try (Connection db = db()) {
            String voteId = text(db, "SELECT id FROM votes WHERE activity_id = ?", signed);
            long seq = count(db, "SELECT seq FROM audit_entries WHERE record_id = ?", voteId);
            String original = text(db, "SELECT content_hash FROM audit_entries WHERE record_id = ?", voteId);
            execute(db, "UPDATE audit_entries SET content_hash = ? WHERE record_id = ?", "00".repeat(32), voteId);
            try {
                brokenBy("entry " + seq + ": its hash does not match its fields (the entry was altered)");
            } finally {
                execute(db, "UPDATE audit_entries SET content_hash = ? WHERE record_id = ?", original, voteId);
            }
        }
        assertThat(audit("audit", "verify").exitCode()).isZero();
    }

    @Test
    void aResultEditedInPlaceIsDetected() throws Exception {
        String created = root.createWallet("edited-" + System.nanoTime(), List.of(WalletAccountParams.ethereum(0)))
                .id();
        try (Connection db = db()) {
            long last = count(db, "SELECT MAX(seq) FROM audit_entries WHERE record_id = ? AND kind <> 'VOTE'", created);
            String original = text(db, "SELECT result FROM activities WHERE id = ?", created);
            String forged = original.replaceFirst("\"walletId\":\"", "\"walletId\":\"0");
            assertThat(forged).isNotEqualTo(original);
            execute(db, "UPDATE activities SET result = ? WHERE id = ?", forged, created);
            try {
                brokenBy("entry " + last + ": activity " + created + " does not match it, its last entry (the row "
                        + "was edited)");
            } finally {
                execute(db, "UPDATE activities SET result = ? WHERE id = ?", original, created);
            }
        }
        assertThat(audit("audit", "verify").exitCode()).isZero();
    }

    /**
     * A vote keeps only its hash in the log, so its row is the content: deleted, {@code audit verify} names its entry,
     * {@code audit export} refuses before writing anything, and {@code get_audit_log} gives the entry without content.
     */
    @Test
    void aDeletedVoteIsDetectedAndCannotBeExported(@TempDir Path directory) throws Exception {
        String signed = signSomething();
        String org = server.organizationId();
        Path file = directory.resolve("audit.jsonl");
        try (Connection db = db()) {
            String voteId = text(db, "SELECT id FROM votes WHERE activity_id = ?", signed);
            long seq = count(db, "SELECT seq FROM audit_entries WHERE record_id = ?", voteId);
            execute(db, "CREATE TABLE kept_votes AS SELECT * FROM votes WHERE id = ?", voteId);
            execute(db, "DELETE FROM votes WHERE id = ?", voteId);
            try {
                String broken = "entry " + seq + ": vote " + voteId + " is missing (the row was deleted)";
                brokenBy(broken);
                Run export = audit("audit", "export", "--organization", org, "--out", file.toString());
                assertThat(export.err()).isEqualTo("audit log broken: organization " + org + " " + broken);
                assertThat(export.exitCode()).isEqualTo(AuditCommand.BROKEN);
                assertThat(file).doesNotExist();
                JsonNode entry = root.query("get_audit_log", Map.of("organizationId", org, "activityId", signed))
                        .path("entries")
                        .get(1);
                assertThat(entry.path("recordId").asString()).isEqualTo(voteId);
                assertThat(entry.has("content")).isFalse();
                assertThat(entry.path("contentHash").asString()).hasSize(64);
            } finally {
                execute(db, "INSERT INTO votes SELECT * FROM kept_votes");
                execute(db, "DROP TABLE kept_votes");
            }
        }
        assertThat(audit("audit", "verify").exitCode()).isZero();
    }

    @Test
    void aDeletedEntryIsDetected() throws Exception {
        signSomething();
        String org = server.organizationId();
        try (Connection db = db();
                Statement keep = db.createStatement()) {
            keep.executeUpdate("CREATE TABLE IF NOT EXISTS kept_entries AS SELECT * FROM audit_entries WHERE 1 = 0");
            execute(
                    db,
                    "INSERT INTO kept_entries SELECT * FROM audit_entries WHERE organization_id = ? AND seq = 2",
                    org);
            execute(db, "DELETE FROM audit_entries WHERE organization_id = ? AND seq = 2", org);
            try {
                brokenBy("entry 3: expected entry 2 here (an entry was deleted, inserted or reordered)");
            } finally {
                execute(db, "INSERT INTO audit_entries SELECT * FROM kept_entries");
                keep.executeUpdate("DROP TABLE kept_entries");
            }
        }
        assertThat(audit("audit", "verify").exitCode()).isZero();
    }

    @Test
    void twoSwappedEntriesAreDetected() throws Exception {
        signSomething();
        String org = server.organizationId();
        try (Connection db = db()) {
            swap(db, org);
            try {
                brokenBy("entry 2: its prevHash is not the hash of entry 1 (an entry was altered, deleted, inserted "
                        + "or reordered)");
            } finally {
                swap(db, org);
            }
        }
        assertThat(audit("audit", "verify").exitCode()).isZero();
    }

    private static void swap(Connection db, String org) throws SQLException {
        execute(db, "UPDATE audit_entries SET seq = -1 WHERE organization_id = ? AND seq = 2", org);
        execute(db, "UPDATE audit_entries SET seq = 2 WHERE organization_id = ? AND seq = 3", org);
        execute(db, "UPDATE audit_entries SET seq = 3 WHERE organization_id = ? AND seq = -1", org);
    }

    @Test
    void anInsertedEntryIsDetectedEvenWithAValidHash() throws Exception {
        String signed = signSomething();
        String org = server.organizationId();
        try (Connection db = db()) {
            long head = count(db, "SELECT audit_seq FROM organizations WHERE id = ?", org);
            String prev;
            try (PreparedStatement query = db.prepareStatement("SELECT audit_head FROM organizations WHERE id = ?")) {
                query.setString(1, org);
                try (ResultSet rs = query.executeQuery()) {
                    rs.next();
                    prev = rs.getString(1);
                }
            }
            // Whoever forges it can compute SHA-256: the entry links and hashes correctly.
            String content = "{\"status\":\"ACTIVITY_STATUS_FAILED\"}";
            String hash = AuditChain.entryHash(org, head + 1, "ACTIVITY_OUTCOME", signed, signed, content, prev);
            execute(
                    db,
                    "INSERT INTO audit_entries (organization_id, seq, kind, activity_id, record_id, content, "
                            + "prev_hash, hash) VALUES (?, ?, 'ACTIVITY_OUTCOME', ?, ?, ?, ?, ?)",
                    org,
                    head + 1,
                    signed,
                    signed,
                    content,
                    prev,
                    hash);
            try {
                brokenBy("entry " + (head + 1) + ": past the chain head (entry " + head
                        + ") its organization records (an entry was inserted)");
            } finally {
                execute(db, "DELETE FROM audit_entries WHERE organization_id = ? AND seq = ?", org, head + 1);
            }
        }
        assertThat(audit("audit", "verify").exitCode()).isZero();
    }

    @Test
    void aSignedHeadCatchesATailCutOffWithTheHeadRewound() throws Exception {
        signSomething();
        assertThat(server.keyhaven().auditHeads().signHeads()).isPositive();
        String org = server.organizationId();
        try (Connection db = db()) {
            long head = count(db, "SELECT audit_seq FROM organizations WHERE id = ?", org);
            String lastHash;
            String prevHash;
            try (PreparedStatement query = db.prepareStatement(
                    "SELECT hash, prev_hash FROM audit_entries WHERE organization_id = ? AND seq = ?")) {
                query.setString(1, org);
                query.setLong(2, head);
                try (ResultSet rs = query.executeQuery()) {
                    rs.next();
                    lastHash = rs.getString(1);
                    prevHash = rs.getString(2);
                }
            }
            execute(
                    db,
                    "CREATE TABLE cut_entries AS SELECT * FROM audit_entries WHERE organization_id = ? AND seq = ?",
                    org,
                    head);
            execute(db, "DELETE FROM audit_entries WHERE organization_id = ? AND seq = ?", org, head);
            execute(db, "UPDATE organizations SET audit_seq = ?, audit_head = ? WHERE id = ?", head - 1, prevHash, org);
            try {
                brokenBy("signed head " + head + ": the chain has no entry " + head + " (entries were deleted)");
            } finally {
                execute(db, "INSERT INTO audit_entries SELECT * FROM cut_entries");
                execute(db, "DROP TABLE cut_entries");
                execute(db, "UPDATE organizations SET audit_seq = ?, audit_head = ? WHERE id = ?", head, lastHash, org);
            }
        }
        Verified clean = verify();
        assertThat(clean.run().out()).isEqualTo(clean.expected());
        assertThat(clean.run().exitCode()).isZero();
    }

    @Test
    void anExportVerifiesOfflineAgainstThePinnedIdentityKeyAndNotAnotherOrEdited(@TempDir Path directory)
            throws Exception {
        signSomething();
        server.keyhaven().auditHeads().signHeads();
        Path file = directory.resolve("audit.jsonl");
        Run exported = audit("audit", "export", "--organization", server.organizationId(), "--out", file.toString());
        assertThat(exported.exitCode()).isZero();
        long entries;
        long heads;
        long firstSigned;
        try (Connection db = db()) {
            firstSigned = count(
                    db, "SELECT MIN(seq) FROM audit_signed_heads WHERE organization_id = ?", server.organizationId());
            entries =
                    count(db, "SELECT COUNT(*) FROM audit_entries WHERE organization_id = ?", server.organizationId());
            heads = count(
                    db, "SELECT COUNT(*) FROM audit_signed_heads WHERE organization_id = ?", server.organizationId());
        }
        assertThat(exported.out()).isEqualTo(entries + " entries and " + heads + " signed heads written to " + file);

        AuditLogVerifier.Result result = AuditLogVerifier.verifyFile(file, server.identityPublicKey());
        assertThat(result).isEqualTo(new AuditLogVerifier.Result((int) entries, (int) heads));

        String otherKey = "04" + "6b17d1f2e12c4247f8bce6e563a440f277037d812deb33a0f4a13945d898c296"
                + "4fe342e2fe1a7f9b8ee7eb4a7c0f9e162bce33576b315ececbb6406837bf51f5";
        assertThatThrownBy(() -> AuditLogVerifier.verifyFile(file, otherKey))
                .isInstanceOf(BrokenChainException.class)
                .hasMessage("organization " + server.organizationId() + " signed head " + firstSigned
                        + ": the signature does not " + "verify against the identity key");

        List<String> lines = new ArrayList<>(Files.readAllLines(file));
        lines.set(0, lines.getFirst().replace("ACTIVITY_STATUS_", "ACTIVITY_STATUS_X"));
        assertThat(lines.getFirst()).contains("ACTIVITY_STATUS_X");
        Path edited = directory.resolve("edited.jsonl");
        Files.write(edited, lines);
        assertThatThrownBy(() -> AuditLogVerifier.verifyFile(edited, server.identityPublicKey()))
                .isInstanceOf(BrokenChainException.class)
                .hasMessage("organization " + server.organizationId()
                        + " entry 1: its hash does not match its fields (the entry was altered)");
    }

    @Test
    void parallelActivitiesInOneOrganizationMakeOneUnbrokenChain() throws Exception {
        Activity keys = root.createPrivateKeys(List.of(
                new PrivateKeyParams("parallel-" + System.nanoTime(), "CURVE_SECP256K1", List.of(), List.of())));
        String privateKeyId =
                keys.result().path("privateKeys").get(0).path("privateKeyId").asString();
        List<Future<Activity>> done = new ArrayList<>();
        try (ExecutorService pool = Executors.newFixedThreadPool(8)) {
            for (int i = 0; i < 24; i++) {
                int n = i;
                done.add(pool.submit(() -> n % 3 == 0
                        ? root.createWallet("parallel-" + n + "-" + System.nanoTime(), List.of())
                        : root.signRawPayload(
                                privateKeyId,
                                String.format("%064x", n),
                                "PAYLOAD_ENCODING_HEXADECIMAL",
                                "HASH_FUNCTION_NO_OP")));
            }
            for (Future<Activity> activity : done) {
                assertThat(activity.get().isCompleted()).isTrue();
            }
        }
        try (Connection db = db()) {
            String org = server.organizationId();
            long entries = count(db, "SELECT COUNT(*) FROM audit_entries WHERE organization_id = ?", org);
            assertThat(count(db, "SELECT MAX(seq) FROM audit_entries WHERE organization_id = ?", org))
                    .isEqualTo(entries);
            assertThat(count(db, "SELECT audit_seq FROM organizations WHERE id = ?", org))
                    .isEqualTo(entries);
        }
        Verified verified = verify();
        assertThat(verified.run().out()).isEqualTo(verified.expected());
        assertThat(verified.run().exitCode()).isZero();
    }
}
