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
import java.util.stream.Collectors;
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
    /** Server settings given on the command line ({@code -c name=value}; a standby's name). */
    private final List<String> settings;

    private PostgresCluster(Path directory, int port, List<String> settings) {
        this.directory = directory;
        this.port = port;
        this.settings = List.copyOf(settings);
    }

    /** Creates a cluster (trust authentication, user postgres) with a database named {@code database}, running. */
    public static PostgresCluster create(String database) {
        requireBinaries();
        PostgresCluster cluster = new PostgresCluster(newDirectory(), freePort(), List.of());
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

    private static void requireBinaries() {
        if (!Files.isExecutable(BIN.resolve("initdb"))) {
            String message = "no PostgreSQL binaries in " + BIN + " (set KEYHAVEN_TEST_PG_BIN)";
            if ("1".equals(System.getenv("KEYHAVEN_REQUIRE_POSTGRES"))) {
                throw new IllegalStateException(message + " and KEYHAVEN_REQUIRE_POSTGRES=1");
            }
            System.err.println("!!! SKIPPING a test that needs its own PostgreSQL: " + message);
            Assumptions.abort("SKIPPED LOUDLY: " + message);
        }
    }

    /** A temporary directory for a cluster, owned by the user PostgreSQL runs as. */
    private static Path newDirectory() {
        try {
            Path directory = Files.createTempDirectory("keyhaven-pg");
            if (asRoot()) {
                UserPrincipal postgres = directory
                        .getFileSystem()
                        .getUserPrincipalLookupService()
                        .lookupPrincipalByName("postgres");
                Files.setOwner(directory, postgres);
            }
            return directory;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * A streaming standby of this cluster, running: a base backup ({@code pg_basebackup -R}, so that it follows this
     * cluster) started on a port of its own, in hot standby, with {@code cluster_name} {@code name} (the name its
     * WAL receiver gives the primary, which {@code synchronous_standby_names} refers to).
     */
    public PostgresCluster standby(String name) {
        PostgresCluster standby = new PostgresCluster(newDirectory(), freePort(), List.of("cluster_name=" + name));
        try {
            standby.run(
                    BIN.resolve("pg_basebackup").toString(),
                    "-h",
                    "127.0.0.1",
                    "-p",
                    Integer.toString(port),
                    "-U",
                    "postgres",
                    "-D",
                    standby.data().toString(),
                    "-R",
                    "-X",
                    "stream",
                    // An immediate checkpoint: the default spreads it over most of checkpoint_timeout (minutes).
                    "--checkpoint=fast",
                    "--no-sync");
            standby.start();
            return standby;
        } catch (RuntimeException e) {
            standby.close();
            throw new IllegalStateException("cannot set up a standby of the test's cluster", e);
        }
    }

    /**
     * Makes every commit wait until the standby named {@code standbyName} has flushed it ({@code ALTER SYSTEM}, then
     * a reload). Only once that standby exists: till then every commit would wait for it.
     */
    public void requireSynchronousStandby(String standbyName) {
        try (Connection admin = DriverManager.getConnection(url("postgres"));
                Statement statement = admin.createStatement()) {
            statement.execute("ALTER SYSTEM SET synchronous_standby_names = '" + standbyName + "'");
            statement.execute("ALTER SYSTEM SET synchronous_commit = 'on'");
            statement.execute("SELECT pg_reload_conf()");
        } catch (SQLException e) {
            throw new IllegalStateException("cannot make replication synchronous", e);
        }
    }

    /** Promotes this standby to a primary ({@code pg_ctl promote}) and waits until it takes writes. */
    public void promote() {
        run(BIN.resolve("pg_ctl").toString(), "-D", data().toString(), "-w", "-t", "60", "promote");
    }

    /**
     * Kills the postmaster with SIGKILL, as a machine's loss or the kernel's OOM killer does: no shutdown, no
     * checkpoint; its backends notice that the postmaster died and end their sessions without answering.
     */
    public void killPostmaster() {
        try {
            long pid = Long.parseLong(
                    Files.readAllLines(data().resolve("postmaster.pid")).get(0).trim());
            ProcessHandle postmaster = ProcessHandle.of(pid)
                    .orElseThrow(() -> new IllegalStateException("no postmaster runs with pid " + pid));
            if (!postmaster.destroyForcibly()) {
                throw new IllegalStateException("could not kill the postmaster " + pid);
            }
            postmaster.onExit().get(30, TimeUnit.SECONDS);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
            throw new IllegalStateException("the killed postmaster did not exit", e);
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
                        + " -c fsync=off"
                        + settings.stream().map(setting -> " -c " + setting).collect(Collectors.joining()),
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

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
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
