package dev.keyhaven.server.state;

import dev.keyhaven.server.tx.Transactor;
import dev.keyhaven.server.tx.Tx;
import dev.keyhaven.server.tx.TxWork;
import java.util.Iterator;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * The organizations' states as this server last saw them. A state is dropped as soon as anything shows that its
 * organization moved on: a change committed here, or a version check that failed because another server changed it.
 */
public final class OrganizationStates {
    /** How many bytes of serialised query answers are kept, over all organizations. */
    static final long ANSWER_BUDGET_BYTES = 32L << 20;

    private final Transactor transactor;
    private final StateVersions versions;
    private final int capacity;
    private final ConcurrentHashMap<String, OrganizationState> latest = new ConcurrentHashMap<>();
    private final RememberedAnswers answers = new RememberedAnswers(ANSWER_BUDGET_BYTES);

    /** @param capacity how many organizations' states to keep; past it, arbitrary ones are dropped */
    public OrganizationStates(Transactor transactor, StateVersions versions, int capacity) {
        this.transactor = transactor;
        this.versions = versions;
        this.capacity = capacity;
    }

    /** The organization's state as last seen, else as it is now; empty when the organization does not exist. */
    public Optional<OrganizationState> current(String organizationId) {
        OrganizationState known = latest.get(organizationId);
        if (known != null) {
            return Optional.of(known);
        }
        OptionalLong version = transactor.read(tx -> versions.current(tx, organizationId));
        if (version.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(remember(new OrganizationState(organizationId, version.getAsLong(), this)));
    }

    /**
     * The organization's state at its version in the database right now (one read), reusing what is remembered of
     * that version; empty when the organization does not exist. Queries start here: unlike a write, a read has no
     * later version check, so it must not trust a state that another server may have moved on from.
     */
    public Optional<OrganizationState> verified(String organizationId) {
        OptionalLong version = transactor.readStatement(tx -> versions.current(tx, organizationId));
        OrganizationState known = latest.get(organizationId);
        if (version.isEmpty()) {
            if (known != null) {
                latest.remove(organizationId, known);
            }
            return Optional.empty();
        }
        if (known != null && known.version() == version.getAsLong()) {
            return Optional.of(known);
        }
        if (known != null && known.version() < version.getAsLong()) {
            latest.remove(organizationId, known);
        }
        return Optional.of(remember(new OrganizationState(organizationId, version.getAsLong(), this)));
    }

    /**
     * Runs {@code work} on lookups made directly in one read transaction, remembering nothing: for a query whose
     * organization keeps moving on while it runs on remembered states.
     */
    public <V> V readDirectly(String organizationId, Function<StateReads, V> work) {
        return transactor.read(tx -> work.apply(StateReads.in(tx, organizationId)));
    }

    /**
     * Fails, inside the write transaction {@code tx}, unless the organization is still at {@code state}'s version. A
     * write that passes commits as if it had run at that version, since no change of the state can have come between.
     *
     * @throws StaleStateException when the organization moved on (the state is dropped)
     */
    public void requireCurrent(Tx tx, OrganizationState state) {
        OptionalLong now = versions.current(tx, state.organizationId());
        if (now.isEmpty() || now.getAsLong() != state.version()) {
            throw moved(state);
        }
    }

    /**
     * Records, inside {@code tx}, that the transaction changes the organization's state. Requests that ran on the
     * previous version fail their check once this commits; call {@link #changed} after the commit.
     */
    public void changing(Tx tx, String organizationId) {
        versions.advance(tx, organizationId);
    }

    /** Drops the remembered state of an organization whose change has just committed. */
    public void changed(String organizationId) {
        latest.remove(organizationId);
    }

    /** How many organizations' states are remembered now. */
    int remembered() {
        return latest.size();
    }

    /** The serialised answer remembered for {@code lookup} at {@code state}, else loaded (checking the version). */
    byte[] answer(OrganizationState state, Object lookup, TxWork<byte[]> load) {
        RememberedAnswers.Label label = new RememberedAnswers.Label(state.organizationId(), state.version(), lookup);
        byte[] known = answers.get(label);
        if (known != null) {
            return known;
        }
        byte[] loaded = load(state, load);
        answers.put(label, loaded);
        return loaded;
    }

    <V> V load(OrganizationState state, TxWork<V> load) {
        return transactor.read(tx -> {
            // The version is read before the answer: an answer newer than its label only makes writes fail the check.
            requireCurrent(tx, state);
            return load.run(tx);
        });
    }

    /**
     * The failure of a request that ran on {@code state} when a write found the organization at another version
     * (the state is dropped); thrown inside the write transaction, it rolls the write back.
     */
    public StaleStateException moved(OrganizationState state) {
        latest.remove(state.organizationId(), state);
        return new StaleStateException(state.organizationId());
    }

    private OrganizationState remember(OrganizationState state) {
        if (latest.size() >= capacity) {
            evictSome();
        }
        // Two requests may load different versions at once; the newer one wins.
        return latest.merge(state.organizationId(), state, (a, b) -> a.version() >= b.version() ? a : b);
    }

    /** Drops about a tenth of the states, whichever the map yields first: cheap, and a miss only costs a reload. */
    private void evictSome() {
        int toDrop = Math.max(1, capacity / 10);
        Iterator<String> ids = latest.keySet().iterator();
        while (toDrop-- > 0 && ids.hasNext()) {
            ids.next();
            ids.remove();
        }
    }
}
