package dev.keyhaven.server.activity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.keyhaven.client.Activity;
import dev.keyhaven.client.KeyhavenClient;
import dev.keyhaven.server.testing.Json;
import dev.keyhaven.server.testing.StoreKind;
import dev.keyhaven.server.testing.TestServer;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Fingerprints that lead with the request's time (schema V18): their exact form, the schema's refusal of any other
 * form, and a body that a server before V18 recorded under its bare hash, found again when it is resubmitted after
 * the upgrade.
 */
@ParameterizedClass
@EnumSource(StoreKind.class)
class FingerprintsIT {
    @Parameter
    StoreKind store;

    private TestServer server;
    private KeyhavenClient root;

    @BeforeEach
    void start() {
        server = TestServer.start(store);
        root = server.rootClient();
    }

    @AfterEach
    void stop() {
        if (server != null) {
            server.close();
        }
    }

    @Test
    void aFingerprintIsTheRequestTimeInTwelveHexDigitsThenTheBodysSha256() throws Exception {
        byte[] body = tagBody("shape");
        long timestampMs = Long.parseLong(Json.parse(body).path("timestampMs").asString());

        Activity activity = root.submitRaw("create_user_tag", body, "createUserTagResult");

        assertThat(activity.fingerprint()).hasSize(76).isEqualTo(String.format("%012x", timestampMs) + sha256Hex(body));
    }

    @Test
    void theSchemaRefusesAnActivityWhoseFingerprintDoesNotLeadWithTheTime() throws SQLException {
        try (Connection db = DriverManager.getConnection(server.databaseUrl())) {
            assertThatThrownBy(() -> insertActivity(db, "a".repeat(64)))
                    .isInstanceOf(SQLException.class)
                    .hasMessageContaining("activity fingerprints lead with the request time since schema V18");
            // The same row with a fingerprint of the current form is stored: only the form is refused.
            insertActivity(db, "b".repeat(76));
            try (Statement count = db.createStatement();
                    ResultSet rows = count.executeQuery(
                            "SELECT count(*) FROM activities WHERE fingerprint = '" + "b".repeat(76) + "'")) {
                rows.next();
                assertThat(rows.getLong(1)).isEqualTo(1);
            }
        }
    }

    @Test
    void aDatabaseWithoutActivitiesAtTheUpgradeHasNoBodiesRecordedUnderTheirBareHash() throws SQLException {
        try (Connection db = DriverManager.getConnection(server.databaseUrl());
                Statement statement = db.createStatement();
                ResultSet rows = statement.executeQuery("SELECT count(*) FROM unprefixed_fingerprints")) {
            rows.next();
            assertThat(rows.getLong(1)).isZero();
        }
    }

    @Test
    void aBodyRecordedUnderItsBareHashBeforeTheUpgradeIsAnsweredWithThatActivity() throws Exception {
        byte[] body = tagBody("recorded before the upgrade");
        long timestampMs = Long.parseLong(Json.parse(body).path("timestampMs").asString());
        Activity recorded = root.submitRaw("create_user_tag", body, "createUserTagResult");
        // What a server before V18 left behind: the activity under the body's bare hash, and a horizon that covers it.
        try (Connection db = DriverManager.getConnection(server.databaseUrl());
                Statement statement = db.createStatement()) {
            statement.execute(
                    store == StoreKind.POSTGRES
                            ? "DROP TRIGGER activities_fingerprint_leads_with_time ON activities"
                            : "DROP TRIGGER activities_fingerprint_leads_with_time");
            try (PreparedStatement update = db.prepareStatement("UPDATE activities SET fingerprint = ? WHERE id = ?")) {
                update.setString(1, sha256Hex(body));
                update.setString(2, recorded.id());
                assertThat(update.executeUpdate()).isEqualTo(1);
            }
            try (PreparedStatement horizon =
                    db.prepareStatement("INSERT INTO unprefixed_fingerprints (until_ms) VALUES (?)")) {
                // The body's own time: the horizon includes it.
                horizon.setLong(1, timestampMs);
                horizon.executeUpdate();
            }
        }

        // A server started after the upgrade (it reads the horizon once) gets the same body again.
        try (TestServer upgraded = server.peer()) {
            Activity again = upgraded.rootClient().submitRaw("create_user_tag", body, "createUserTagResult");

            assertThat(again.id()).isEqualTo(recorded.id());
            assertThat(again.fingerprint()).isEqualTo(sha256Hex(body));
            assertThat(root.listUserTags())
                    .filteredOn(t -> t.path("tagName").asString().equals("recorded before the upgrade"))
                    .hasSize(1);
            // A body recorded under neither form is new, and gets a fingerprint of the current form.
            Activity later = upgraded.rootClient()
                    .submitRaw("create_user_tag", tagBody("after the upgrade"), "createUserTagResult");
            assertThat(later.id()).isNotEqualTo(recorded.id());
            assertThat(later.fingerprint()).hasSize(76);
        }
    }

    private byte[] tagBody(String name) {
        return root.submitBody("ACTIVITY_TYPE_CREATE_USER_TAG", Map.of("userTagName", name, "userIds", List.of()));
    }

    private void insertActivity(Connection db, String fingerprint) throws SQLException {
        try (PreparedStatement insert = db.prepareStatement("INSERT INTO activities (id, organization_id, type, "
                + "status, intent, result, fingerprint, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)")) {
            insert.setString(1, "activity-" + fingerprint.charAt(0));
            insert.setString(2, server.organizationId());
            insert.setString(3, "ACTIVITY_TYPE_CREATE_USER_TAG");
            insert.setString(4, "ACTIVITY_STATUS_COMPLETED");
            insert.setString(5, "{}");
            insert.setString(6, "{}");
            insert.setString(7, fingerprint);
            insert.setLong(8, 1);
            insert.setLong(9, 1);
            insert.executeUpdate();
        }
    }

    private static String sha256Hex(byte[] body) throws NoSuchAlgorithmException {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(body));
    }
}
