package dev.keyhaven.server.http;

import dev.keyhaven.server.api.Caller;
import dev.keyhaven.server.api.Params;
import dev.keyhaven.server.state.StateReads;

/**
 * A query answered from its organization's state: the endpoint verifies the organization's state version, resolves
 * the caller on that state and hands it here, so lookups and whole answers can be remembered per version (see
 * {@link StateReads#answer}). When the organization keeps moving on, {@code state} reads directly in a transaction.
 */
@FunctionalInterface
interface StateQueryHandler {
    Object handle(Caller caller, Params body, StateReads state);
}
