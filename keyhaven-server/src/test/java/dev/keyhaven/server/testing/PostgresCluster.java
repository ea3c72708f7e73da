package dev.keyhaven.server.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.UserPrincipal;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;

/**
 * A PostgreSQL cluster of a test's own, on a free port in a temporary directory, which the test may stop and start
 * (an outage) without touching the shared server on 5432. Made with the binaries in {@code KEYHAVEN_TEST_PG_BIN}
 * (default {@code /usr/lib/postgresql/15/bin}); as root they run as the {@code postgres} user, since PostgreSQL
 * refuses to run as root. Missing binaries skip the test loudly, unless {@code KEYHAVEN_REQUIRE_POSTGRES=1}.
 */
public final class PostgresCluster implements AutoCloseable {
    private static final Path BIN =
            Path.of(System.getenv().getOrDefault("KEYHAVEN_TEST_PG_BIN", "/usr/lib/postgresql/15/bin"));
    private static final long COMMAND_SECONDS = 120;

    private final Path directory;
    private final int port;

    private PostgresCluster(Path directory, int port) {
        this.directory = directory;
        this.port = port;
    }

    /** Creates a cluster (trust authentication, user postgres) with a database named {@code database}, running. */
    public static PostgresCluster create(String database) {
        if (!Files.isExecutable(BIN.resolve("initdb"))) {
            String message = "no PostgreSQL binaries in " + BIN + " (set KEYHAVEN_TEST_PG_BIN)";
            if ("1".equals(System.getenv("KEYHAVEN_REQUIRE_POSTGRES"))) {
                throw new IllegalStateException(message + " and KEYHAVEN_REQUIRE_POSTGRES=1");
            }
            System.err.println("!!! SKIPPING a test that needs its own PostgreSQL: " + message);
            Assumptions.abort("SKIPPED LOUDLY: " + message);
        }
        PostgresCluster cluster;
        try {
            Path directory = Files.createTempDirectory("keyhaven-pg");
            if (asRoot()) {
                UserPrincipal postgres = directory
                        .getFileSystem()
                        .getUserPrincipalLookupService()
                        .lookupPrincipalByName("postgres");
                Files.setOwner(directory, postgres);
            }
            cluster = new PostgresCluster(directory, freePort());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        try {
            cluster.run(
                    BIN.resolve("initdb").toString(),
                    "-D",
                    cluster.data().toString(),
                    "-U",
                    "postgres",
                    "--auth=trust",
                    "--no-sync",
                    "-E",
                    "UTF8");
            cluster.start();
            try (Connection admin = DriverManager.getConnection(cluster.url("postgres"));
                    Statement statement = admin.createStatement()) {
                statement.execute("CREATE DATABASE " + database);
            }
            return cluster;
        } catch (SQLException | RuntimeException e) {
            cluster.close();
            throw new IllegalStateException("cannot set up a PostgreSQL cluster of the test's own", e);
        }
    }

    /** A JDBC URL of {@code database} in this cluster, as user postgres. */
    public String url(String database) {
        return "jdbc:postgresql://127.0.0.1:" + port + "/" + database + "?user=postgres";
    }

    public int port() {
        return port;
    }

    /** Starts the cluster and returns once it accepts connections. */
    public void start() {
        run(
                BIN.resolve("pg_ctl").toString(),
                "-D",
                data().toString(),
                "-l",
                directory.resolve("server.log").toString(),
                "-w",
                "-t",
                "60",
                "-o",
                "-p " + port + " -c listen_addresses=127.0.0.1" + " -c unix_socket_directories=" + directory
                        + " -c fsync=off",
                "start");
    }

    /** Stops the cluster as an operator or a fail-over does (fast: open sessions are ended) and waits for it. */
    public void stop() {
        run(BIN.resolve("pg_ctl").toString(), "-D", data().toString(), "-m", "fast", "-w", "-t", "60", "stop");
    }

    private Path data() {
        return directory.resolve("data");
    }

    private void run(String... command) {
        List<String> full = new ArrayList<>();
        if (asRoot()) {
            full.addAll(List.of("runuser", "-u", "postgres", "--"));
        }
        full.addAll(List.of(command));
        Path output = directory.resolve("command.log");
        try {
            Process process = new ProcessBuilder(full)
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(output.toFile()))
                    .start();
            if (!process.waitFor(COMMAND_SECONDS, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new IllegalStateException(String.join(" ", command) + " did not finish");
            }
            if (process.exitValue() != 0) {
                throw new IllegalStateException(String.join(" ", command) + " failed:\n" + Files.readString(output));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    private static boolean asRoot() {
        return "root".equals(System.getProperty("user.name"));
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    /** Stops the cluster (immediately) if it runs, and removes its directory. */
    @Override
    public void close() {
        if (Files.exists(data().resolve("postmaster.pid"))) {
            try {
                run(BIN.resolve("pg_ctl").toString(), "-D", data().toString(), "-m", "immediate", "-w", "stop");
            } catch (IllegalStateException alreadyStopped) {
                // Nothing runs: the directory goes all the same.
            }
        }
        try (Stream<Path> files = Files.walk(directory)) {
            files.sorted(Comparator.reverseOrder())
                    .forEach(path -> path.toFile().delete());
        } catch (IOException e) {
            System.err.println("could not remove " + directory + ": " + e.getMessage());
        }
    }
}
