package dev.keyhaven.server.webauthn;

import com.webauthn4j.data.client.challenge.Challenge;
import com.webauthn4j.server.ServerProperty;

/** What webauthn4j checks a ceremony's client data and authenticator data against. */
final class ServerProperties {
    private ServerProperties() {}

    /**
     * The allowed origins (which also bound the top-level origin of a ceremony run in a cross-origin iframe), the
     * relying-party id and the expected challenge.
     */
    static ServerProperty of(AllowedOrigins origins, String rpId, Challenge challenge) {
        ServerProperty.Builder builder = ServerProperty.builder()
                .originPredicate(origins::allows)
                .rpId(rpId)
                .challenge(challenge);
        return (origins.isAny() ? builder.anyTopOrigin() : builder.topOriginPredicate(origins::allows)).build();
    }
}
