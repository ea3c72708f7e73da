package dev.keyhaven.server.oauth2;

import dev.keyhaven.server.tx.Tx;
import java.util.List;
import java.util.Optional;

/** Storage of OAuth 2.0 credentials (implemented by the store). */
public interface Oauth2CredentialRepository {

    /** Inserts a credential; one with the same organization, provider and client id is a constraint violation. */
    void insert(Tx tx, Oauth2Credential credential);

    /** Replaces provider, client id, both secret forms and {@code updatedAt} of the credential's row. */
    void update(Tx tx, Oauth2Credential credential);

    void delete(Tx tx, String organizationId, String credentialId);

    Optional<Oauth2Credential> find(Tx tx, String organizationId, String credentialId);

    /** The organization's credential for {@code provider} and {@code clientId} (the auth proxy's lookup). */
    Optional<Oauth2Credential> findByClient(Tx tx, String organizationId, Oauth2Provider provider, String clientId);

    /** The organization's credentials in id (creation) order. */
    List<Oauth2Credential> list(Tx tx, String organizationId);
}
