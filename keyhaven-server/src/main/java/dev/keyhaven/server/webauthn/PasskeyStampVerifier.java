package dev.keyhaven.server.webauthn;

import com.webauthn4j.WebAuthnManager;
import com.webauthn4j.converter.util.ObjectConverter;
import com.webauthn4j.credential.CredentialRecord;
import com.webauthn4j.credential.CredentialRecordImpl;
import com.webauthn4j.data.AuthenticationData;
import com.webauthn4j.data.AuthenticationParameters;
import com.webauthn4j.data.AuthenticationRequest;
import com.webauthn4j.data.attestation.authenticator.AAGUID;
import com.webauthn4j.data.attestation.authenticator.AttestedCredentialData;
import com.webauthn4j.data.client.challenge.DefaultChallenge;
import com.webauthn4j.server.ServerProperty;
import com.webauthn4j.verifier.exception.VerificationException;
import dev.keyhaven.server.api.ApiException;
import dev.keyhaven.server.api.Caller;
import dev.keyhaven.server.api.ErrorCode;
import dev.keyhaven.server.auth.VerifiedStamp;
import dev.keyhaven.server.auth.WebAuthnStampVerifier;
import dev.keyhaven.server.tx.Transactor;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import tools.jackson.databind.ObjectMapper;

/**
 * Verifies {@code X-Stamp-WebAuthn}: finds the passkey by credential id (in any organization; caller resolution then
 * decides which one the request may act in) and checks the assertion with webauthn4j — client data of type
 * {@code webauthn.get} from an allowed origin whose challenge is the {@link StampChallenge} of the exact body, the
 * registered rpId's hash, the user-present flag, and the signature over authenticator data and the client data hash
 * with the registered COSE key — then applies the {@link SignCounterRule}.
 */
public final class PasskeyStampVerifier implements WebAuthnStampVerifier {
    /** The vote scheme recorded for passkey stamps. */
    public static final String SCHEME = "SIGNATURE_SCHEME_TK_WEBAUTHN";

    private static final HexFormat HEX = HexFormat.of();
    private static final String GET = "webauthn.get";

    private final Transactor transactor;
    private final PasskeyRepository passkeys;
    private final AllowedOrigins origins;
    private final ObjectMapper json;
    private final WebAuthnManager manager;
    private final PasskeyKeys keys;
    private final SignCounterRule counters;

    public PasskeyStampVerifier(
            Transactor transactor, PasskeyRepository passkeys, AllowedOrigins origins, ObjectMapper json) {
        this.transactor = transactor;
        this.passkeys = passkeys;
        this.origins = origins;
        this.json = json;
        ObjectConverter converter = new ObjectConverter();
        this.manager = WebAuthnManagers.create(converter);
        this.keys = new PasskeyKeys(converter.getCborMapper());
        this.counters = new SignCounterRule(transactor, passkeys);
    }

    @Override
    public VerifiedStamp verify(String headerValue, byte[] body) {
        WebAuthnStampHeader stamp = WebAuthnStampHeader.parse(json, headerValue);
        StoredPasskey passkey = transactor
                .read(tx -> passkeys.findByCredentialId(tx, stamp.credentialId()))
                .orElseThrow(() -> new ApiException(
                        ErrorCode.CREDENTIAL_NOT_FOUND, "webauthn authenticator not found in organization"));
        AuthenticationData assertion = parse(stamp);
        ServerProperty server =
                ServerProperties.of(origins, passkey.rpId(), new DefaultChallenge(StampChallenge.of(body)));
        // The counter passed to webauthn4j is not used: its check is off, and SignCounterRule applies ours.
        CredentialRecord credential = new CredentialRecordImpl(
                null,
                null,
                null,
                null,
                0L,
                new AttestedCredentialData(
                        AAGUID.ZERO, stamp.credentialIdBytes(), keys.fromCoseHex(passkey.publicKeyCose())),
                null,
                null,
                null,
                null);
        try {
            manager.verify(assertion, new AuthenticationParameters(server, credential, null, false, true));
        } catch (VerificationException e) {
            throw new ApiException(
                    ErrorCode.SIGNATURE_INVALID,
                    "could not verify WebAuthN signature: " + describe(VerificationFailures.of(e, GET)));
        }
        counters.accept(stamp.credentialId(), assertion.getAuthenticatorData().getSignCount());
        return VerifiedStamp.passkey(
                stamp.credentialId(),
                new Caller.StampRecord(
                        new String(body, StandardCharsets.UTF_8),
                        passkey.publicKey(),
                        HEX.formatHex(stamp.signature()),
                        SCHEME));
    }

    private AuthenticationData parse(WebAuthnStampHeader stamp) {
        try {
            return manager.parse(new AuthenticationRequest(
                    stamp.credentialIdBytes(), stamp.authenticatorData(), stamp.clientDataJson(), stamp.signature()));
        } catch (RuntimeException e) {
            throw WebAuthnStampHeader.malformed("authenticatorData or clientDataJson cannot be decoded");
        }
    }

    private static String describe(VerificationFailures.Reason reason) {
        return (reason.part() == VerificationFailures.Part.CLIENT_DATA ? "clientDataJson " : "") + reason.text();
    }
}
