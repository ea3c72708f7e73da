package dev.keyhaven.server.activity;

import dev.keyhaven.server.api.Params;
import dev.keyhaven.server.state.StateReads;
import java.util.Optional;

/**
 * Executes one kind of activity. A handler parses and validates the intent before anything is written, and executes
 * it when the authorization rules allow it: inside the activity's transaction, or, for a handler whose
 * {@link ActivityEffect} is {@code NONE}, outside any, reading only through {@link ActivityContext#reads()}.
 * Throwing an {@link dev.keyhaven.server.api.ApiException} from {@link #execute} rolls back every effect; the engine
 * then records the activity as failed and reports the error.
 *
 * @param <P> the validated parameters
 */
public interface ActivityHandler<P> {

    /** The operation, what it acts on, and the activity types accepted. */
    ActivitySpec spec();

    /** Validates the envelope's {@code parameters}; every problem is a 400 naming the field. */
    P parse(Params parameters);

    /**
     * Validates the parameters of an activity of {@code type}, one of the spec's versions. Handlers whose versions
     * accept different parameters override this; by default every version is parsed alike.
     */
    default P parse(Params parameters, ActivityType type) {
        return parse(parameters);
    }

    /** Performs the activity and returns its result object (serialised under the version's result key). */
    Object execute(ActivityContext context, P params);

    /**
     * The user whose own credentials this activity manages, when it manages credentials at all. Users may always
     * manage their own credentials (the implicit rule), so the authorizer allows such activities for that user.
     */
    default Optional<String> credentialOwner(P params) {
        return Optional.empty();
    }

    /**
     * What policies may read about this activity: {@code activity.params} and the resources it acts on. Called only
     * when a policy is evaluated, through {@code organization}'s lookups. A resource that does not exist is left out
     * (execution reports it).
     */
    default PolicyFacts policyFacts(StateReads organization, P params) {
        return PolicyFacts.NONE;
    }
}
