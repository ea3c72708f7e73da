package dev.keyhaven.server.state;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.keyhaven.server.tx.Transactor;
import dev.keyhaven.server.tx.Tx;
import dev.keyhaven.server.tx.TxWork;
import java.util.HashMap;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class OrganizationStatesTest {
    private static final Tx TX = new Tx() {};

    /** Organization versions as a store would hold them, changed by the test. */
    private final Map<String, Long> versions = new HashMap<>();

    private final AtomicInteger loads = new AtomicInteger();
    private final OrganizationStates states = new OrganizationStates(
            new Transactor() {
                @Override
                public <T> T write(TxWork<T> work) {
                    return work.run(TX);
                }

                @Override
                public <T> T read(TxWork<T> work) {
                    return work.run(TX);
                }
            },
            new StateVersions() {
                @Override
                public OptionalLong current(Tx tx, String organizationId) {
                    Long version = versions.get(organizationId);
                    return version == null ? OptionalLong.empty() : OptionalLong.of(version);
                }

                @Override
                public void advance(Tx tx, String organizationId) {
                    versions.merge(organizationId, 1L, Long::sum);
                }
            },
            20);

    private record Lookup(String what) {}

    private String load(Tx tx) {
        return "answer " + loads.incrementAndGet();
    }

    @Test
    void anUnknownOrganizationHasNoState() {
        assertThat(states.current("nowhere")).isEmpty();
    }

    @Test
    void aLookupIsMadeOnceAtAVersion() {
        versions.put("o", 3L);
        OrganizationState state = states.current("o").orElseThrow();
        assertThat(state.version()).isEqualTo(3);
        assertThat(state.get(new Lookup("a"), this::load)).isEqualTo("answer 1");
        assertThat(state.get(new Lookup("a"), this::load)).isEqualTo("answer 1");
        assertThat(state.get(new Lookup("b"), this::load)).isEqualTo("answer 2");
        assertThat(states.current("o").orElseThrow()).isSameAs(state);
    }

    @Test
    void aLookupOnAStateTheOrganizationLeftFailsAndForgetsIt() {
        versions.put("o", 1L);
        OrganizationState state = states.current("o").orElseThrow();
        versions.put("o", 2L);
        assertThatThrownBy(() -> state.get(new Lookup("a"), this::load)).isInstanceOf(StaleStateException.class);
        assertThat(loads).hasValue(0);
        assertThat(states.current("o").orElseThrow().version()).isEqualTo(2);
    }

    @Test
    void aWriteIsAllowedOnlyWhileTheOrganizationIsAtTheVersion() {
        versions.put("o", 1L);
        OrganizationState state = states.current("o").orElseThrow();
        states.requireCurrent(TX, state);
        states.changing(TX, "o");
        assertThatThrownBy(() -> states.requireCurrent(TX, state)).isInstanceOf(StaleStateException.class);
        versions.remove("o");
        assertThatThrownBy(() -> states.requireCurrent(TX, state)).isInstanceOf(StaleStateException.class);
    }

    @Test
    void aCommittedChangeDropsTheRememberedState() {
        versions.put("o", 1L);
        OrganizationState before = states.current("o").orElseThrow();
        states.changing(TX, "o");
        states.changed("o");
        OrganizationState after = states.current("o").orElseThrow();
        assertThat(after).isNotSameAs(before);
        assertThat(after.version()).isEqualTo(2);
    }

    @Test
    void aVerifiedStateIsTheOrganizationAsTheStoreHasItNow() {
        versions.put("o", 1L);
        OrganizationState remembered = states.current("o").orElseThrow();
        assertThat(states.verified("o").orElseThrow()).isSameAs(remembered);
        versions.put("o", 2L); // moved on through another server: nothing here has noticed
        assertThat(states.current("o").orElseThrow()).isSameAs(remembered);
        OrganizationState verified = states.verified("o").orElseThrow();
        assertThat(verified.version()).isEqualTo(2);
        assertThat(states.current("o").orElseThrow()).isSameAs(verified);
        versions.remove("o");
        assertThat(states.verified("o")).isEmpty();
        assertThat(states.current("o")).isEmpty();
    }

    @Test
    void anAnswerIsRememberedWithItsVersion() {
        versions.put("o", 1L);
        OrganizationState first = states.verified("o").orElseThrow();
        assertThat(first.answer(new Lookup("page"), tx -> bytes(load(tx)))).isEqualTo(bytes("answer 1"));
        assertThat(first.answer(new Lookup("page"), tx -> bytes(load(tx)))).isEqualTo(bytes("answer 1"));
        versions.put("o", 2L);
        OrganizationState second = states.verified("o").orElseThrow();
        assertThat(second.answer(new Lookup("page"), tx -> bytes(load(tx)))).isEqualTo(bytes("answer 2"));
        assertThatThrownBy(() -> first.answer(new Lookup("other page"), tx -> bytes(load(tx))))
                .isInstanceOf(StaleStateException.class);
    }

    private static byte[] bytes(String text) {
        return text.getBytes(java.nio.charset.StandardCharsets.UTF_8);
    }

    @Test
    void beyondCapacityOrganizationsAreForgottenNotRefused() {
        for (int i = 0; i < 100; i++) {
            versions.put("o" + i, 0L);
            assertThat(states.current("o" + i)).isPresent();
            assertThat(states.remembered()).isBetween(1, 20);
        }
        OrganizationState first = states.current("o0").orElseThrow();
        assertThat(first.get(new Lookup("a"), this::load)).startsWith("answer");
    }
}
