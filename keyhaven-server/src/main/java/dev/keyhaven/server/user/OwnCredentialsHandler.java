package dev.keyhaven.server.user;

import dev.keyhaven.policy.Value;
import dev.keyhaven.server.activity.ActivityHandler;
import dev.keyhaven.server.activity.PolicyFacts;
import dev.keyhaven.server.state.StateReads;
import java.util.Map;
import java.util.Optional;

/**
 * A handler of one user's credentials (API keys, authenticators, OAuth providers). The user named by the intent owns
 * the credentials, so the policy authorizer's implicit rule lets users manage their own; policies see that user as
 * {@code activity.params.user_id}.
 */
interface OwnCredentialsHandler<I extends OwnCredentialsHandler.OfUser> extends ActivityHandler<I> {

    /** An intent naming the user whose credentials it changes. */
    interface OfUser {
        String userId();
    }

    @Override
    default Optional<String> credentialOwner(I intent) {
        return Optional.of(intent.userId());
    }

    /** {@code activity.params.user_id}. */
    @Override
    default PolicyFacts policyFacts(StateReads organization, I intent) {
        return PolicyFacts.params(Map.of("user_id", Value.of(intent.userId())));
    }
}
