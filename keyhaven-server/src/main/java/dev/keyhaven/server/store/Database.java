package dev.keyhaven.server.store;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import com.zaxxer.hikari.metrics.micrometer.MicrometerMetricsTrackerFactory;
import dev.keyhaven.server.tx.Transactor;
import io.micrometer.core.instrument.MeterRegistry;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.util.Properties;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;
import org.postgresql.Driver;

/**
 * An open, migrated database: a connection pool, the dialect and the transactor. The embedded default is SQLite in
 * WAL mode with {@code synchronous=FULL}, so every acknowledged commit has been fsynced (concurrent writers' commits
 * are grouped); PostgreSQL keeps its own durability settings ({@code synchronous_commit=on} by default).
 *
 * <p>An unreachable PostgreSQL costs a request a few seconds at most, never a hang: the pool gives up on a connection
 * after {@link #CONNECTION_TIMEOUT}, a connection attempt after {@link #CONNECT_TIMEOUT}, and a statement whose
 * server went silent (a network partition, not a stopped server, which refuses at once) after {@link #SILENCE_LIMIT}.
 * The store then answers 503 with {@code Retry-After}, and the pool reconnects by itself once the server is back.
 *
 * <p>Fail-over: with a multi-host URL ({@code jdbc:postgresql://A:5432,B:5432/keyhaven?targetServerType=primary})
 * pgjdbc connects to the hosts in turn and keeps only a connection to the one that takes writes; while none does
 * (the primary died, the standby is not promoted yet) a connection cannot be had, so requests get 503 and readiness
 * says the database is unreachable. The pool's connections to the dead primary fail on their next use or validation
 * (Hikari checks any connection idle for more than half a second before handing it out, and idle ones every 2 min,
 * its default {@code keepaliveTime}) and are evicted, as any connection error evicts them; new ones go to the
 * promoted standby. pgjdbc remembers for {@code hostRecheckSeconds}
 * (10 s) that a host was a standby, but when it knows of no primary it tries every host again, so a promotion is seen
 * by the next connection attempt. {@link StandbyEviction} drops a connection whose server refuses writes as
 * read-only. {@code FailoverIT} kills a primary under load and counts.
 */
public final class Database implements AutoCloseable {
    /** How long a request waits for a pooled connection of PostgreSQL before it is answered 503. */
    static final Duration CONNECTION_TIMEOUT = Duration.ofSeconds(3);
    /** How long one TCP connection attempt to PostgreSQL may take. */
    static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(3);
    /** How long a connection, including its login, may take to open. */
    static final Duration LOGIN_TIMEOUT = Duration.ofSeconds(5);
    /**
     * How long PostgreSQL may stay silent while a statement waits for its answer ({@link SilenceWatchingSocketFactory}).
     * Far above any statement Keyhaven runs (the longest wait is a row lock held through an SMTP send of at most
     * 10 s); migrations do not have it.
     */
    static final Duration SILENCE_LIMIT = Duration.ofSeconds(30);
    /**
     * The settings of Keyhaven's PostgreSQL sessions, sent at login (a URL with its own {@code options} replaces
     * them). {@code backend_flush_after} makes a session that has written 256 kB of data pages ask the kernel to
     * write them out now. Without it (PostgreSQL's default, 0) the data pages that activities, votes and audit
     * entries fill pile up in the page cache until the kernel writes each file's out in one burst, every 30 s; on a
     * disk shared with the WAL every commit then waits behind that burst, for up to 170 ms (BENCHMARKS.md, "The
     * tail of signing on PostgreSQL"). A pooler must pass {@code options} on or ignore it (docs/postgresql.md).
     */
    static final String SESSION_OPTIONS = "-c backend_flush_after=256kB";

    private static final String SQLITE_PREFIX = "jdbc:sqlite:";

    private final HikariDataSource dataSource;
    private final Dialect dialect;
    private final JdbcTransactor transactor;
    /** SQLite's checkpoints, off the writer's path; null on PostgreSQL. */
    private final WalCheckpoints checkpoints;

    private Database(HikariDataSource dataSource, Dialect dialect, WalCheckpoints checkpoints) {
        this.dataSource = dataSource;
        this.dialect = dialect;
        this.transactor = new JdbcTransactor(dataSource, dialect);
        this.checkpoints = checkpoints;
    }

    /** The JDBC URL of the embedded store in a data directory. */
    public static String embeddedUrl(Path dataDirectory) {
        return SQLITE_PREFIX + dataDirectory.resolve("keyhaven.db").toAbsolutePath();
    }

    /** The database file of an embedded store's URL ({@code jdbc:sqlite:FILE?options}). */
    static String embeddedPath(String jdbcUrl) {
        String path = jdbcUrl.substring(SQLITE_PREFIX.length());
        int options = path.indexOf('?');
        return options < 0 ? path : path.substring(0, options);
    }

    /**
     * Opens the database at {@code jdbcUrl} and applies pending migrations.
     *
     * @param poolSize the maximum number of pooled connections (0 picks the store's default)
     * @param metrics where pool metrics go, or {@code null}
     * @throws DatabaseOpenException when the database cannot be reached or logged in to
     */
    public static Database open(String jdbcUrl, int poolSize, MeterRegistry metrics) {
        return open(jdbcUrl, poolSize, metrics, SILENCE_LIMIT);
    }

    /** {@link #open(String, int, MeterRegistry)} with another bound for a silent PostgreSQL (for tests). */
    static Database open(String jdbcUrl, int poolSize, MeterRegistry metrics, Duration silenceLimit) {
        Dialect dialect = Dialect.of(jdbcUrl);
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(jdbcUrl);
        config.setPoolName("keyhaven");
        config.setAutoCommit(true);
        switch (dialect) {
            case SQLITE -> {
                createOwnerOnly(embeddedPath(jdbcUrl));
                config.setConnectionTimeout(10_000);
                config.setMaximumPoolSize(poolSize > 0 ? poolSize : 4);
                config.addDataSourceProperty("journal_mode", "WAL");
                config.addDataSourceProperty("synchronous", "FULL");
                // The journals of the writer's savepoints (one per signature) in memory, not in temporary files: they
                // only ever serve a rollback inside a live transaction, so they never need the disk.
                config.addDataSourceProperty("temp_store", "MEMORY");
                config.addDataSourceProperty("foreign_keys", "true");
                config.addDataSourceProperty("busy_timeout", "10000");
                // sqlite-jdbc otherwise prepares and runs "SELECT last_insert_rowid()" after every INSERT, for a
                // getGeneratedKeys() that Keyhaven never calls (its keys are its own ids): 3 % of a signature's
                // CPU, on the one writer thread (BENCHMARKS.md, issue 24).
                config.addDataSourceProperty("jdbc.get_generated_keys", "false");
            }
            case POSTGRESQL -> {
                config.setConnectionTimeout(CONNECTION_TIMEOUT.toMillis());
                config.setValidationTimeout(Duration.ofSeconds(1).toMillis());
                config.setMaximumPoolSize(poolSize > 0 ? poolSize : 16);
                connectTimeouts().forEach((name, value) -> config.addDataSourceProperty((String) name, value));
                if (ownSocketFactory(jdbcUrl)) {
                    // The operator's sockets (a cloud proxy's, say) cannot be watched: pgjdbc's timer per read.
                    config.addDataSourceProperty("socketTimeout", Long.toString(Math.max(1, silenceLimit.toSeconds())));
                } else {
                    // Not pgjdbc's socketTimeout, a timer per read (see the factory).
                    config.addDataSourceProperty("socketFactory", SilenceWatchingSocketFactory.class.getName());
                    config.addDataSourceProperty("socketFactoryArg", Long.toString(silenceLimit.toMillis()));
                }
                config.addDataSourceProperty("options", SESSION_OPTIONS);
                config.setExceptionOverride(new StandbyEviction());
            }
        }
        FirstConnection.require(jdbcUrl, dialect, config.getDataSourceProperties());
        if (metrics != null) {
            config.setMetricsTrackerFactory(new MicrometerMetricsTrackerFactory(metrics));
        }
        HikariDataSource dataSource = new HikariDataSource(config);
        try {
            if (dialect == Dialect.SQLITE) {
                migrate(dataSource);
            } else {
                try (HikariDataSource migrations = new HikariDataSource(migrationPool(jdbcUrl))) {
                    migrate(migrations);
                }
            }
        } catch (RuntimeException e) {
            dataSource.close();
            throw e;
        }
        WalCheckpoints checkpoints =
                dialect == Dialect.SQLITE ? new WalCheckpoints(jdbcUrl, config.getDataSourceProperties()) : null;
        return new Database(dataSource, dialect, checkpoints);
    }

    /** Whether a PostgreSQL URL names a socket factory of its own, which wins over Keyhaven's. */
    private static boolean ownSocketFactory(String jdbcUrl) {
        Properties parsed = Driver.parseURL(jdbcUrl, null);
        return parsed != null && parsed.getProperty("socketFactory") != null;
    }

    /** PostgreSQL's connection timeouts, in the driver's unit (seconds); the URL's own settings win over them. */
    private static Properties connectTimeouts() {
        Properties properties = new Properties();
        properties.setProperty("connectTimeout", Long.toString(CONNECT_TIMEOUT.toSeconds()));
        properties.setProperty("loginTimeout", Long.toString(LOGIN_TIMEOUT.toSeconds()));
        properties.setProperty("tcpKeepAlive", "true");
        return properties;
    }

    /**
     * Connections for the migrations, without the statement bound: a migration may run longer than
     * {@link #SILENCE_LIMIT}. (SQLite migrates on the pool, whose connections carry its pragmas.)
     */
    private static HikariConfig migrationPool(String jdbcUrl) {
        HikariConfig migrating = new HikariConfig();
        migrating.setJdbcUrl(jdbcUrl);
        migrating.setPoolName("keyhaven-migrations");
        // Flyway holds a connection for its lock besides the one it migrates on.
        migrating.setMaximumPoolSize(3);
        migrating.setMinimumIdle(0);
        migrating.setConnectionTimeout(CONNECTION_TIMEOUT.toMillis());
        migrating.setDataSourceProperties(connectTimeouts());
        return migrating;
    }

    private static void migrate(HikariDataSource dataSource) {
        Flyway.configure()
                .dataSource(dataSource)
                .locations("classpath:db/migration")
                .javaMigrations(new FingerprintsLeadWithTime(Clock.systemUTC()))
                .failOnMissingLocations(true)
                .load()
                .migrate();
    }

    /**
     * Creates the embedded database file readable by its owner only, before SQLite creates it with the process's
     * umask; SQLite gives its WAL and shared-memory files the database file's mode.
     */
    private static void createOwnerOnly(String path) {
        if (path.isEmpty() || path.startsWith(":") || path.startsWith("file:")) {
            return;
        }
        Path file = Path.of(path);
        if (Files.exists(file)
                || file.toAbsolutePath().getParent() == null
                || !Files.isDirectory(file.toAbsolutePath().getParent())) {
            return;
        }
        try {
            Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        } catch (FileAlreadyExistsException | UnsupportedOperationException createdMeanwhileOrNotPosix) {
            // Created meanwhile, or not a POSIX file system: SQLite creates it, and the directory guards it.
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create the database file " + file, e);
        }
    }

    public Transactor transactor() {
        return transactor;
    }

    /** The pool, for the store's own tests (a {@link GroupCommitWriter} they observe). */
    DataSource dataSource() {
        return dataSource;
    }

    Dialect dialect() {
        return dialect;
    }

    /** Whether this is the embedded SQLite store. */
    public boolean isEmbedded() {
        return dialect == Dialect.SQLITE;
    }

    /**
     * Whether the database answers now: a pooled connection within the pool's timeout that passes a validity check.
     * Readiness probes call this, not requests.
     */
    public boolean answers() {
        try (Connection connection = dataSource.getConnection()) {
            return connection.isValid(1);
        } catch (SQLException e) {
            return false;
        }
    }

    @Override
    public void close() {
        if (checkpoints != null) {
            checkpoints.close();
        }
        transactor.close();
        dataSource.close();
    }

    /** SQLite's checkpoints (for the store's own tests); null on PostgreSQL. */
    WalCheckpoints checkpoints() {
        return checkpoints;
    }
}
