package dev.keyhaven.server.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.keyhaven.server.api.ApiException;
import dev.keyhaven.server.api.ErrorCode;
import dev.keyhaven.server.testing.StoreKind;
import dev.keyhaven.server.tx.Tx;
import java.io.IOException;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.file.Path;
import java.sql.Connection;
import java.time.Duration;
import java.util.Optional;
import javax.net.SocketFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A PostgreSQL that stays silent while a statement waits for its answer ends the statement as a lost connection
 * (a 503 for the request), after the silence limit of {@link SilenceWatchingSocketFactory}, with no timer per read:
 * pgjdbc's own socket timeout is off. A statement that answers within the limit is not cut however long it runs
 * overall, and the pool serves again at once. The server's silence is a {@code pg_sleep} longer than the limit, which
 * from the client's side is what a partition looks like: a connection that is open and says nothing. A URL that names
 * its own socket factory keeps the bound as pgjdbc's socket timeout.
 */
class SilentPostgresIT {
    private static final Duration LIMIT = Duration.ofSeconds(1);

    @TempDir
    Path directory;

    private String url;

    @BeforeEach
    void createDatabase() {
        url = StoreKind.POSTGRES.freshDatabase(directory);
    }

    @AfterEach
    void dropDatabase() {
        StoreKind.POSTGRES.drop(url);
    }

    @Test
    void aServerSilentForLongerThanTheLimitLosesTheConnectionAndThePoolServesAgain() {
        try (Database database = Database.open(url, 2, null, LIMIT)) {
            // The server answers 5 s after the question: four times the limit.
            assertThatThrownBy(() -> database.transactor().read(tx -> sleep(tx, 5_000)))
                    .isInstanceOfSatisfying(
                            ApiException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.DATABASE_UNAVAILABLE))
                    .hasMessage("the database is unavailable; the request may be sent again (retry after 5 s)");

            Optional<Integer> answer =
                    database.transactor().read(tx -> Sql.one(tx, "SELECT 41 + 1", rs -> rs.getInt(1)));
            assertThat(answer).contains(42);
        }
    }

    @Test
    void aStatementWhoseAnswerComesWithinTheLimitIsNotCut() {
        try (Database database = Database.open(url, 2, null, Duration.ofSeconds(10))) {
            String answer = database.transactor().read(tx -> sleep(tx, 300));
            assertThat(answer).isEqualTo("done");
        }
    }

    @Test
    void readsAreNotTimedByTheDriverAndClosedConnectionsAreForgotten() throws Exception {
        int before = SilenceWatchingSocketFactory.socketsWatched();
        try (Database database = Database.open(url, 2, null)) {
            try (Connection connection = database.dataSource().getConnection()) {
                // pgjdbc's socket timeout (a timer for each read on a virtual thread) stays off.
                assertThat(connection.getNetworkTimeout()).isZero();
                assertThat(SilenceWatchingSocketFactory.socketsWatched()).isGreaterThan(before);
            }
        }
        assertThat(SilenceWatchingSocketFactory.socketsWatched()).isEqualTo(before);
    }

    @Test
    void aUrlWithASocketFactoryOfItsOwnKeepsTheBoundAsPgjdbcsTimeout() throws Exception {
        String own = url + (url.contains("?") ? "&" : "?") + "socketFactory=" + PlainSockets.class.getName();
        int before = SilenceWatchingSocketFactory.socketsWatched();
        try (Database database = Database.open(own, 2, null);
                Connection connection = database.dataSource().getConnection()) {
            assertThat(connection.getNetworkTimeout()).isEqualTo(30_000);
            assertThat(SilenceWatchingSocketFactory.socketsWatched()).isEqualTo(before);
        }
    }

    /** An operator's socket factory (pgjdbc makes it from its class name): the JDK's plain sockets. */
    public static final class PlainSockets extends SocketFactory {
        private final SocketFactory plain = SocketFactory.getDefault();

        @Override
        public Socket createSocket() throws IOException {
            return plain.createSocket();
        }

        @Override
        public Socket createSocket(String host, int port) throws IOException {
            return plain.createSocket(host, port);
        }

        @Override
        public Socket createSocket(String host, int port, InetAddress localHost, int localPort) throws IOException {
            return plain.createSocket(host, port, localHost, localPort);
        }

        @Override
        public Socket createSocket(InetAddress host, int port) throws IOException {
            return plain.createSocket(host, port);
        }

        @Override
        public Socket createSocket(InetAddress address, int port, InetAddress localAddress, int localPort)
                throws IOException {
            return plain.createSocket(address, port, localAddress, localPort);
        }
    }

    @Test
    void theLimitMustBeAPositiveNumberOfMilliseconds() {
        assertThatThrownBy(() -> new SilenceWatchingSocketFactory("0"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("the silence limit must be positive");
        assertThatThrownBy(() -> new SilenceWatchingSocketFactory("30s"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("the silence limit must be a number of milliseconds");
    }

    private static String sleep(Tx tx, long millis) {
        return Sql.one(tx, "SELECT 'done' FROM pg_sleep(? / 1000.0)", rs -> rs.getString(1), millis)
                .orElseThrow();
    }
}
