package dev.keyhaven.server.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.keyhaven.client.Requests.PrivateKeyParams;
import dev.keyhaven.server.custody.CustodyException;
import dev.keyhaven.server.custody.KekLocator;
import dev.keyhaven.server.custody.Pkcs11Kek;
import dev.keyhaven.server.testing.OnBothStores;
import dev.keyhaven.server.testing.SoftHsm;
import dev.keyhaven.server.testing.StoreKind;
import dev.keyhaven.server.testing.SubOrganization;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * {@code kek rotate} on a serving deployment: file KEK → HSM (SoftHSM2) → another HSM key, while clients sign without
 * a failed request; the running server follows each rotation; afterwards the old KEKs open nothing and a server
 * started with one refuses to start, while one started with the new KEK serves.
 */
class KekRotationIT extends OnBothStores {
    private static final String DIGEST = "42".repeat(32);

    private record Run(int exitCode, String out, String err) {}

    private Run kek(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine command = Main.commandLine();
        command.setOut(new PrintWriter(out, true));
        command.setErr(new PrintWriter(err, true));
        List<String> all = new ArrayList<>(
                List.of("kek", "rotate", "--data-dir", server.dataDirectory().toString()));
        if (store == StoreKind.POSTGRES) {
            all.addAll(List.of("--db-url", server.databaseUrl()));
        }
        all.addAll(List.of(args));
        int code = command.execute(all.toArray(String[]::new));
        return new Run(code, out.toString().strip(), err.toString().strip());
    }

    private static List<String> pkcs11(String prefix, KekLocator.Pkcs11 key) {
        return List.of(
                prefix + "pkcs11-library", key.library().toString(),
                prefix + "pkcs11-token-label", key.tokenLabel(),
                prefix + "pkcs11-pin-file", key.pinFile().toString(),
                prefix + "pkcs11-key-label", key.keyLabel());
    }

    private static String[] args(List<String> first, List<String> second) {
        List<String> all = new ArrayList<>(first);
        all.addAll(second);
        return all.toArray(String[]::new);
    }

    @Test
    void rotatesFileToHsmToHsmUnderSigningLoadAndTheOldKeksOpenNothing() throws Exception {
        SoftHsm softHsm = SoftHsm.inThisJvm();
        Path pin = softHsm.pinFile(SoftHsm.PIN);
        KekLocator.Pkcs11 alpha =
                new KekLocator.Pkcs11(SoftHsm.MODULE, SoftHsm.JVM_TOKENS.get(0), "kek-" + UUID.randomUUID(), pin);
        KekLocator.Pkcs11 beta =
                new KekLocator.Pkcs11(SoftHsm.MODULE, SoftHsm.JVM_TOKENS.get(1), "kek-" + UUID.randomUUID(), pin);
        Pkcs11Kek.init(alpha).close();
        Pkcs11Kek.init(beta).close();
        String signWith = root.createPrivateKeys(
                        List.of(new PrivateKeyParams("rotated", "CURVE_SECP256K1", List.of(), List.of())))
                .result()
                .path("privateKeys")
                .get(0)
                .path("privateKeyId")
                .asString();
        Path fileKek = server.dataDirectory().resolve("master.key");

        AtomicBoolean running = new AtomicBoolean(true);
        AtomicInteger signed = new AtomicInteger();
        List<String> failures = java.util.Collections.synchronizedList(new ArrayList<>());
        ExecutorService clients = Executors.newFixedThreadPool(4);
        List<Future<?>> load = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            load.add(clients.submit(() -> {
                while (running.get()) {
                    try {
                        if (root.signRawPayload(signWith, DIGEST, "PAYLOAD_ENCODING_HEXADECIMAL", "HASH_FUNCTION_NO_OP")
                                .isCompleted()) {
                            signed.incrementAndGet();
                        } else {
                            failures.add("not completed");
                        }
                    } catch (RuntimeException e) {
                        failures.add(e.toString());
                    }
                }
            }));
        }
        try {
            Run toHsm = kek(args(List.of("--to", "pkcs11"), pkcs11("--to-", alpha)));
            assertThat(toHsm.exitCode()).as(toHsm.err()).isZero();
            assertThat(toHsm.out()).startsWith("rotated the KEK to generation 2 (" + alpha + "): ");
            // The running server follows: a new organization's data key is wrapped under the HSM key now.
            String first = newSubOrganization();
            assertThat(generationOf(first)).isEqualTo(2);

            Run toOtherHsm = kek(args(
                    concat(List.of("--kek", "pkcs11"), pkcs11("--", alpha)),
                    concat(List.of("--to", "pkcs11"), pkcs11("--to-", beta))));
            assertThat(toOtherHsm.exitCode()).as(toOtherHsm.err()).isZero();
            assertThat(toOtherHsm.out()).startsWith("rotated the KEK to generation 3 (" + beta + "): ");
            String second = newSubOrganization();
            assertThat(generationOf(first)).isEqualTo(3);
            assertThat(generationOf(second)).isEqualTo(3);

            // The file KEK is no longer the database's: a rotation from it is refused, naming the current one.
            Run stale = kek(
                    "--to",
                    "file",
                    "--to-key-file",
                    server.dataDirectory().resolve("next.key").toString());
            assertThat(stale.exitCode()).isEqualTo(1);
            assertThat(stale.err())
                    .startsWith("keyhaven kek rotate: the KEK (file " + fileKek + ") does not open this database; its "
                            + "current KEK is generation 3, " + beta);
            assertThat(server.dataDirectory().resolve("next.key")).doesNotExist();
        } finally {
            running.set(false);
            for (Future<?> client : load) {
                client.get();
            }
            clients.shutdown();
        }
        assertThat(failures).as("requests that failed during the rotations").isEmpty();
        assertThat(signed.get()).isPositive();

        // Neither the file KEK nor the first HSM key opens any data key now.
        try (Connection db = DriverManager.getConnection(server.databaseUrl());
                PreparedStatement query = db.prepareStatement("SELECT owner_id, kek_generation FROM data_keys");
                ResultSet rows = query.executeQuery()) {
            int count = 0;
            while (rows.next()) {
                count++;
                assertThat(rows.getLong(2)).isEqualTo(3);
            }
            assertThat(count).isGreaterThanOrEqualTo(3);
        }
        KeyhavenConfig withFile = KeyhavenConfig.defaults(server.dataDirectory())
                .withPort(0)
                .withDatabaseUrl(Optional.of(server.databaseUrl()));
        assertThatThrownBy(() -> Keyhaven.open(withFile, Clock.systemUTC()))
                .isInstanceOf(CustodyException.class)
                .hasMessage("the KEK (file " + fileKek + ") does not open this database; its current KEK is "
                        + "generation 3, " + beta + "; refusing to start");
        assertThatThrownBy(() -> Keyhaven.open(withFile.withHsmKek(Optional.of(alpha)), Clock.systemUTC()))
                .isInstanceOf(CustodyException.class)
                .hasMessageStartingWith("the KEK (" + alpha + ") does not open this database");
        // A server started with the new KEK signs with the keys sealed before any rotation.
        try (Keyhaven restarted = Keyhaven.open(withFile.withHsmKek(Optional.of(beta)), Clock.systemUTC())) {
            var api = restarted.serve();
            var client = new dev.keyhaven.client.KeyhavenClient(
                    "http://127.0.0.1:" + api.port(), server.rootStamper(), server.organizationId());
            assertThat(client.signRawPayload(signWith, DIGEST, "PAYLOAD_ENCODING_HEXADECIMAL", "HASH_FUNCTION_NO_OP")
                            .isCompleted())
                    .isTrue();
        }
    }

    private static List<String> concat(List<String> first, List<String> second) {
        List<String> all = new ArrayList<>(first);
        all.addAll(second);
        return all;
    }

    private String newSubOrganization() {
        SubOrganization sub = SubOrganization.create(root, "rotated-" + UUID.randomUUID());
        sub.client().createPrivateKeys(List.of(new PrivateKeyParams("k", "CURVE_ED25519", List.of(), List.of())));
        return sub.id();
    }

    private long generationOf(String owner) throws Exception {
        try (Connection db = DriverManager.getConnection(server.databaseUrl());
                PreparedStatement query =
                        db.prepareStatement("SELECT kek_generation FROM data_keys WHERE owner_id = ?")) {
            query.setString(1, owner);
            try (ResultSet rs = query.executeQuery()) {
                assertThat(rs.next()).as("a data key for " + owner).isTrue();
                return rs.getLong(1);
            }
        }
    }
}
