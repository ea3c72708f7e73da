package dev.keyhaven.server.store;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.SQLExceptionOverride;
import java.sql.SQLException;
import org.junit.jupiter.api.Test;

/**
 * A server that refuses a write as read-only is a standby: its connection leaves the pool and the request is a 503
 * (the next one reaches the primary); any other refusal of a statement leaves both to their usual handling.
 */
class StandbyEvictionTest {
    private static final SQLException READ_ONLY =
            new SQLException("ERROR: cannot execute INSERT in a read-only transaction", "25006");
    private static final SQLException UNIQUE =
            new SQLException("ERROR: duplicate key value violates unique constraint", "23505");

    @Test
    void aReadOnlyRefusalEvictsTheConnectionAndIsAnOutage() {
        assertThat(new StandbyEviction().adjudicate(READ_ONLY)).isEqualTo(SQLExceptionOverride.Override.MUST_EVICT);
        assertThat(DatabaseOutage.causedBy(new SQLException("batch failed", "XX000", READ_ONLY)))
                .isTrue();
    }

    @Test
    void otherRefusalsAreLeftToThePoolAndTheRequest() {
        assertThat(new StandbyEviction().adjudicate(UNIQUE)).isEqualTo(SQLExceptionOverride.Override.CONTINUE_EVICT);
        assertThat(DatabaseOutage.causedBy(UNIQUE)).isFalse();
    }
}
