package dev.keyhaven.server.webhook;

import dev.keyhaven.server.activity.Activity;
import dev.keyhaven.server.activity.ActivityEvents;
import dev.keyhaven.server.activity.ActivityRenderer;
import dev.keyhaven.server.api.Ids;
import dev.keyhaven.server.state.OrganizationState;
import dev.keyhaven.server.state.OrganizationStates;
import dev.keyhaven.server.state.StaleStateException;
import dev.keyhaven.server.state.StateReads;
import dev.keyhaven.server.tx.Transactor;
import dev.keyhaven.server.tx.Tx;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import tools.jackson.databind.ObjectMapper;

/**
 * Writes the outbox: for every status an activity is recorded with, one delivery row per endpoint subscribed to
 * {@code ACTIVITY_UPDATES} in the activity's organization or its parent, in the same transaction as the activity.
 *
 * <p>An organization without subscribed endpoints pays no write. Whether it has any is a lookup of its state
 * ({@link StateReads}): remembered on the signing path, exact there because endpoint changes are activities that
 * advance the organization's state version, which the signature's write checks. A parent's endpoints are a lookup
 * of the parent's remembered state, which a change made through this server drops at once; a change made through
 * another server is noticed within {@link #PARENT_RECHECK} (the parent's version is checked again at most that
 * often), so for that long sub-organization events may miss a parent endpoint just created elsewhere.
 */
public final class WebhookOutbox implements ActivityEvents {
    /** How often a parent's remembered state is checked against the store. */
    static final Duration PARENT_RECHECK = Duration.ofSeconds(1);

    private static final int MAX_PARENTS_TRACKED = 10_000;

    private final Transactor transactor;
    private final OrganizationStates states;
    private final WebhookRepository repository;
    private final ActivityRenderer renderer;
    private final ObjectMapper json;
    private final Clock clock;
    private final Ids ids;
    private final Runnable wake;
    private final ConcurrentHashMap<String, Long> parentCheckedAt = new ConcurrentHashMap<>();

    /** @param wake tells the deliverer that rows were written (it may look before its next poll) */
    public WebhookOutbox(
            Transactor transactor,
            OrganizationStates states,
            WebhookRepository repository,
            ActivityRenderer renderer,
            ObjectMapper json,
            Clock clock,
            Ids ids,
            Runnable wake) {
        this.transactor = transactor;
        this.states = states;
        this.repository = repository;
        this.renderer = renderer;
        this.json = json;
        this.clock = clock;
        this.ids = ids;
        this.wake = wake;
    }

    /** The lookup of an organization's subscribed endpoints and its parent. */
    record Subscribers(List<String> endpointIds, Optional<String> parentId) {}

    private record SubscribersKey() {}

    private static final SubscribersKey SUBSCRIBERS = new SubscribersKey();

    @Override
    public void preparing(StateReads reads) {
        try {
            Subscribers own = subscribers(reads);
            own.parentId().ifPresent(this::parentEndpoints);
        } catch (StaleStateException moved) {
            // The write that follows fails its version check and the request starts again on fresh state.
        }
    }

    @Override
    public void statusChanged(Tx tx, StateReads reads, Activity activity) {
        Subscribers own = subscribers(reads);
        List<String> endpointIds = new ArrayList<>(own.endpointIds());
        if (own.parentId().isPresent()) {
            endpointIds.addAll(
                    reads instanceof OrganizationState
                            ? parentEndpoints(own.parentId().get())
                            : load(tx, own.parentId().get()).endpointIds());
        }
        if (endpointIds.isEmpty()) {
            return;
        }
        String body = json.writeValueAsString(renderer.render(activity));
        String eventId = ids.next();
        var now = clock.instant();
        repository.insertDeliveries(
                tx,
                endpointIds.stream()
                        .map(endpointId -> new WebhookDelivery(
                                ids.next(),
                                eventId,
                                endpointId,
                                activity.organizationId(),
                                WebhookSubscription.ACTIVITY_UPDATES,
                                body,
                                WebhookDelivery.Status.PENDING,
                                0,
                                now,
                                Optional.empty(),
                                Optional.empty(),
                                now,
                                now))
                        .toList());
        wake.run();
    }

    private Subscribers subscribers(StateReads reads) {
        return reads.get(SUBSCRIBERS, tx -> load(tx, reads.organizationId()));
    }

    private Subscribers load(Tx tx, String organizationId) {
        return new Subscribers(
                repository.endpoints(tx, organizationId).stream()
                        .filter(e -> e.receives(WebhookSubscription.ACTIVITY_UPDATES))
                        .map(WebhookEndpoint::id)
                        .toList(),
                repository.parentOrganization(tx, organizationId));
    }

    /** The parent's subscribed endpoints, from its remembered state, checked against the store now and then. */
    private List<String> parentEndpoints(String parentId) {
        for (int attempt = 0; ; attempt++) {
            Optional<OrganizationState> parent = states.current(parentId);
            if (parent.isEmpty()) {
                return List.of();
            }
            try {
                recheck(parent.get());
                return subscribers(parent.get()).endpointIds();
            } catch (StaleStateException moved) {
                if (attempt == 2) {
                    return transactor.read(tx -> load(tx, parentId)).endpointIds();
                }
            }
        }
    }

    private void recheck(OrganizationState parent) {
        long now = System.nanoTime();
        Long checked = parentCheckedAt.get(parent.organizationId());
        if (checked != null && now - checked < PARENT_RECHECK.toNanos()) {
            return;
        }
        transactor.read(tx -> {
            states.requireCurrent(tx, parent);
            return null;
        });
        if (parentCheckedAt.size() >= MAX_PARENTS_TRACKED) {
            parentCheckedAt.clear();
        }
        parentCheckedAt.put(parent.organizationId(), now);
    }
}
