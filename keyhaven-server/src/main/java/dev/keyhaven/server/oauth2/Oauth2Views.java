package dev.keyhaven.server.oauth2;

import dev.keyhaven.server.api.WireTime;

/** Wire forms: {@code v1Oauth2Credential}. */
public final class Oauth2Views {
    private Oauth2Views() {}

    /** {@code v1Oauth2Credential}: every field of the seed's §2.5; the secret only as the client's envelope. */
    public record WireCredential(
            String oauth2CredentialId,
            String organizationId,
            String provider,
            String clientId,
            String encryptedClientSecret,
            WireTime createdAt,
            WireTime updatedAt) {}

    public static WireCredential credential(Oauth2Credential c) {
        return new WireCredential(
                c.id(),
                c.organizationId(),
                c.provider().wireName(),
                c.clientId(),
                c.encryptedClientSecret(),
                WireTime.of(c.createdAt()),
                WireTime.of(c.updatedAt()));
    }
}
