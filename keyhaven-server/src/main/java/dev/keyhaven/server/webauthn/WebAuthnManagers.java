package dev.keyhaven.server.webauthn;

import com.webauthn4j.WebAuthnManager;
import com.webauthn4j.converter.util.ObjectConverter;
import com.webauthn4j.verifier.attestation.statement.androidkey.AndroidKeyAttestationStatementVerifier;
import com.webauthn4j.verifier.attestation.statement.androidsafetynet.AndroidSafetyNetAttestationStatementVerifier;
import com.webauthn4j.verifier.attestation.statement.apple.AppleAnonymousAttestationStatementVerifier;
import com.webauthn4j.verifier.attestation.statement.none.NoneAttestationStatementVerifier;
import com.webauthn4j.verifier.attestation.statement.packed.PackedAttestationStatementVerifier;
import com.webauthn4j.verifier.attestation.statement.tpm.TPMAttestationStatementVerifier;
import com.webauthn4j.verifier.attestation.statement.u2f.FIDOU2FAttestationStatementVerifier;
import com.webauthn4j.verifier.attestation.trustworthiness.certpath.NullCertPathTrustworthinessVerifier;
import com.webauthn4j.verifier.attestation.trustworthiness.self.DefaultSelfAttestationTrustworthinessVerifier;
import java.util.List;

/** Builds the one webauthn4j manager Keyhaven verifies registrations and assertions with. */
final class WebAuthnManagers {
    private WebAuthnManagers() {}

    /**
     * A manager that verifies every attestation statement format webauthn4j knows (none, packed including self
     * attestation, fido-u2f, tpm, android-key, android-safetynet, apple), so a statement whose signature does not
     * cover the authenticator data and client data is refused. It deliberately does <em>not</em> check attestation
     * certificate chains against trust anchors (no FIDO metadata service is configured): like webauthn4j's
     * "non-strict" manager, and like Turnkey, Keyhaven accepts any authenticator model, so a statement proves
     * the registration's integrity, not the authenticator's make.
     *
     * <p>webauthn4j's own sign-counter check is switched off because {@link SignCounterRule} applies Keycloak's rule
     * instead, atomically in the store.
     */
    static WebAuthnManager create(ObjectConverter converter) {
        WebAuthnManager manager = new WebAuthnManager(
                List.of(
                        new NoneAttestationStatementVerifier(),
                        new PackedAttestationStatementVerifier(),
                        new FIDOU2FAttestationStatementVerifier(),
                        new TPMAttestationStatementVerifier(),
                        new AndroidKeyAttestationStatementVerifier(),
                        new AndroidSafetyNetAttestationStatementVerifier(),
                        new AppleAnonymousAttestationStatementVerifier()),
                new NullCertPathTrustworthinessVerifier(),
                new DefaultSelfAttestationTrustworthinessVerifier(),
                converter);
        manager.getAuthenticationDataVerifier().setMaliciousCounterValueHandler(authenticationObject -> {});
        return manager;
    }
}
