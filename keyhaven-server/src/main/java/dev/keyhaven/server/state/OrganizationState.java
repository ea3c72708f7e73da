package dev.keyhaven.server.state;

import dev.keyhaven.server.tx.TxWork;
import java.util.concurrent.ConcurrentHashMap;

/**
 * One organization at one state version, with the lookups requests have made at that version. A remembered answer
 * is exact while the organization stays at the version; whatever is written on the strength of it must be committed
 * through {@link OrganizationStates#requireCurrent}, which refuses once the organization has moved on.
 */
public final class OrganizationState implements StateReads {
    /** Lookups remembered per organization at most; past it, answers are still correct, only not kept. */
    static final int MAX_REMEMBERED = 4_096;

    private final String organizationId;
    private final long version;
    private final OrganizationStates states;
    private final ConcurrentHashMap<Object, Object> remembered = new ConcurrentHashMap<>();

    OrganizationState(String organizationId, long version, OrganizationStates states) {
        this.organizationId = organizationId;
        this.version = version;
        this.states = states;
    }

    @Override
    public String organizationId() {
        return organizationId;
    }

    public long version() {
        return version;
    }

    /**
     * The remembered answer, or one loaded in a read transaction that first checks the organization is still at this
     * version.
     *
     * @throws StaleStateException when it is not
     */
    @Override
    public <V> V get(Object key, TxWork<V> load) {
        @SuppressWarnings("unchecked")
        V known = (V) remembered.get(key);
        if (known != null) {
            return known;
        }
        // Loaded outside the map's lock: a lookup is a database read, and two racing loads give the same answer.
        V loaded = states.load(this, load);
        if (remembered.size() < MAX_REMEMBERED) {
            remembered.putIfAbsent(key, loaded);
        }
        return loaded;
    }

    /** Remembered among all organizations' answers within a byte budget (see {@link RememberedAnswers}). */
    @Override
    public byte[] answer(Object key, TxWork<byte[]> load) {
        return states.answer(this, key, load);
    }

    @Override
    public String toString() {
        return "OrganizationState[" + organizationId + "@" + version + ", " + remembered.size() + " lookups]";
    }
}
