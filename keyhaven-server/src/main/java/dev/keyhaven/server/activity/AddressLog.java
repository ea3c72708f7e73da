package dev.keyhaven.server.activity;

import java.util.ArrayList;
import java.util.List;

/**
 * Where a handler reports each address it creates, for the activity's app proofs. Activities that were not asked for
 * proofs get {@link #IGNORED}, which keeps nothing.
 */
public sealed interface AddressLog {
    AddressLog IGNORED = new Ignored();

    void created(CreatedAddress address);

    /** A log that keeps what it is told, for one activity. */
    static Kept keeping() {
        return new Kept(new ArrayList<>());
    }

    /** Keeps nothing. */
    record Ignored() implements AddressLog {
        @Override
        public void created(CreatedAddress address) {}
    }

    /** Keeps the addresses in the order they were created. */
    record Kept(List<CreatedAddress> addresses) implements AddressLog {
        @Override
        public void created(CreatedAddress address) {
            addresses.add(address);
        }
    }
}
