package dev.keyhaven.server.store;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import com.zaxxer.hikari.metrics.micrometer.MicrometerMetricsTrackerFactory;
import dev.keyhaven.server.tx.Transactor;
import io.micrometer.core.instrument.MeterRegistry;
import java.nio.file.Path;
import org.flywaydb.core.Flyway;

/**
 * An open, migrated database: a connection pool, the dialect and the transactor. The embedded default is SQLite in
 * WAL mode with {@code synchronous=FULL}, so every acknowledged commit has been fsynced (concurrent writers' commits
 * are grouped); PostgreSQL keeps its own durability settings ({@code synchronous_commit=on} by default).
 */
public final class Database implements AutoCloseable {
    private final HikariDataSource dataSource;
    private final Dialect dialect;
    private final JdbcTransactor transactor;

    private Database(HikariDataSource dataSource, Dialect dialect) {
        this.dataSource = dataSource;
        this.dialect = dialect;
        this.transactor = new JdbcTransactor(dataSource, dialect);
    }

    /** The JDBC URL of the embedded store in a data directory. */
    public static String embeddedUrl(Path dataDirectory) {
        return "jdbc:sqlite:" + dataDirectory.resolve("keyhaven.db").toAbsolutePath();
    }

    /**
     * Opens the database at {@code jdbcUrl} and applies pending migrations.
     *
     * @param poolSize the maximum number of pooled connections (0 picks the store's default)
     * @param metrics where pool metrics go, or {@code null}
     */
    public static Database open(String jdbcUrl, int poolSize, MeterRegistry metrics) {
        Dialect dialect = Dialect.of(jdbcUrl);
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(jdbcUrl);
        config.setPoolName("keyhaven");
        config.setAutoCommit(true);
        config.setConnectionTimeout(10_000);
        switch (dialect) {
            case SQLITE -> {
                config.setMaximumPoolSize(poolSize > 0 ? poolSize : 4);
                config.addDataSourceProperty("journal_mode", "WAL");
                config.addDataSourceProperty("synchronous", "FULL");
                config.addDataSourceProperty("foreign_keys", "true");
                config.addDataSourceProperty("busy_timeout", "10000");
            }
            case POSTGRESQL -> config.setMaximumPoolSize(poolSize > 0 ? poolSize : 16);
        }
        if (metrics != null) {
            config.setMetricsTrackerFactory(new MicrometerMetricsTrackerFactory(metrics));
        }
        HikariDataSource dataSource = new HikariDataSource(config);
        try {
            Flyway.configure().dataSource(dataSource).locations("classpath:db/migration")
                    .failOnMissingLocations(true).load().migrate();
        } catch (RuntimeException e) {
            dataSource.close();
            throw e;
        }
        return new Database(dataSource, dialect);
    }

    public Transactor transactor() {
        return transactor;
    }

    /** Whether this is the embedded SQLite store. */
    public boolean isEmbedded() {
        return dialect == Dialect.SQLITE;
    }

    @Override
    public void close() {
        transactor.close();
        dataSource.close();
    }
}
