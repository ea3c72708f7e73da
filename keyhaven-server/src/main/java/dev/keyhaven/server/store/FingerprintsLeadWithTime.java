package dev.keyhaven.server.store;

import dev.keyhaven.server.activity.Fingerprint;
import dev.keyhaven.server.activity.SubmitEnvelope;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import org.flywaydb.core.api.MigrationVersion;
import org.flywaydb.core.api.migration.Context;
import org.flywaydb.core.api.migration.JavaMigration;

/**
 * Schema V18: activity fingerprints lead with the request's time ({@link Fingerprint}). The one migration in Java,
 * because a trigger is written differently in each store.
 *
 * <ul>
 * <li>A trigger refuses an activity whose fingerprint is not {@link Fingerprint#LENGTH} long. A server of an earlier
 * version, still running beside this one on PostgreSQL, would record the bare hash and miss a byte-identical body
 * recorded here (or the other way round), so it fails instead of running that body a second time.</li>
 * <li>{@code unprefixed_fingerprints} says until when a resubmitted body may have been recorded under its bare hash:
 * {@link SubmitEnvelope#MAX_SKEW_AHEAD} past this migration, when activities were already recorded (a body recorded
 * earlier cannot be timed later than that); no row for a database without activities.</li>
 * </ul>
 */
final class FingerprintsLeadWithTime implements JavaMigration {
    static final String REFUSAL = "activity fingerprints lead with the request time since schema V18: a server of an "
            + "earlier version cannot record activities in this database";

    private final Clock clock;

    FingerprintsLeadWithTime(Clock clock) {
        this.clock = clock;
    }

    @Override
    public MigrationVersion getVersion() {
        return MigrationVersion.fromVersion("18");
    }

    @Override
    public String getDescription() {
        return "fingerprints lead with time";
    }

    @Override
    public Integer getChecksum() {
        return 18;
    }

    @Override
    public boolean canExecuteInTransaction() {
        return true;
    }

    @Override
    public void migrate(Context context) throws SQLException {
        Connection connection = context.getConnection();
        boolean postgres = connection.getMetaData().getDatabaseProductName().equals("PostgreSQL");
        try (Statement statement = connection.createStatement()) {
            statement.execute("CREATE TABLE unprefixed_fingerprints (until_ms BIGINT NOT NULL)");
            // The trigger first: on PostgreSQL creating it waits for the inserts under way (an older server's) and
            // holds off new ones, so that every body recorded under its bare hash was accepted before the clock is
            // read below.
            if (postgres) {
                statement.execute("CREATE FUNCTION activities_fingerprint_refused() RETURNS trigger LANGUAGE plpgsql "
                        + "AS $$ BEGIN RAISE EXCEPTION '" + REFUSAL + "'; END $$");
                statement.execute("CREATE TRIGGER activities_fingerprint_leads_with_time BEFORE INSERT ON activities "
                        + "FOR EACH ROW WHEN (length(NEW.fingerprint) <> " + Fingerprint.LENGTH + ") "
                        + "EXECUTE FUNCTION activities_fingerprint_refused()");
            } else {
                statement.execute("CREATE TRIGGER activities_fingerprint_leads_with_time BEFORE INSERT ON activities "
                        + "WHEN length(NEW.fingerprint) <> " + Fingerprint.LENGTH + " "
                        + "BEGIN SELECT RAISE(ABORT, '" + REFUSAL + "'); END");
            }
            boolean recorded;
            try (ResultSet any = statement.executeQuery("SELECT 1 FROM activities LIMIT 1")) {
                recorded = any.next();
            }
            if (recorded) {
                try (PreparedStatement insert =
                        connection.prepareStatement("INSERT INTO unprefixed_fingerprints (until_ms) VALUES (?)")) {
                    insert.setLong(
                            1,
                            clock.instant().plus(SubmitEnvelope.MAX_SKEW_AHEAD).toEpochMilli());
                    insert.executeUpdate();
                }
            }
        }
    }
}
