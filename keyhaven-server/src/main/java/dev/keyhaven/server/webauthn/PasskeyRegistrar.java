package dev.keyhaven.server.webauthn;

import com.webauthn4j.WebAuthnManager;
import com.webauthn4j.converter.AttestationObjectConverter;
import com.webauthn4j.converter.CollectedClientDataConverter;
import com.webauthn4j.converter.util.ObjectConverter;
import com.webauthn4j.data.RegistrationData;
import com.webauthn4j.data.RegistrationParameters;
import com.webauthn4j.data.attestation.AttestationObject;
import com.webauthn4j.data.attestation.authenticator.AttestedCredentialData;
import com.webauthn4j.data.client.CollectedClientData;
import com.webauthn4j.data.client.Origin;
import com.webauthn4j.data.client.challenge.DefaultChallenge;
import com.webauthn4j.server.ServerProperty;
import com.webauthn4j.verifier.exception.VerificationException;
import dev.keyhaven.server.api.ApiException;
import dev.keyhaven.server.user.AttestationVerifier;
import dev.keyhaven.server.user.RegisteredPasskey;
import java.security.MessageDigest;

/**
 * Verifies passkey registrations (create_users, create_authenticators, the root users of create_sub_organization):
 * the client data must be of type {@code webauthn.create}, carry the request's {@code challenge} and come from an
 * allowed origin; the attestation object's statement must verify over the authenticator data and client data; the
 * attested credential must be the one named by {@code credentialId}. The rpId is recovered from the origin (see
 * {@link RelyingPartyId}) and stored, because assertions are later checked against it.
 *
 * <p>The {@code challenge} parameter is compared as bytes with the client data's challenge. Every official SDK sends
 * the text the authenticator saw: {@code @turnkey/sdk-browser} and {@code @turnkey/core} send base64url of the 32
 * random challenge bytes, the React Native stamper sends 64 random hex characters, which its native module decodes
 * as base64url, so both spellings decode to the same bytes the client data carries.
 */
public final class PasskeyRegistrar implements AttestationVerifier {
    private static final String CREATE = "webauthn.create";

    private final AllowedOrigins origins;
    private final WebAuthnManager manager;
    private final CollectedClientDataConverter clientDataConverter;
    private final AttestationObjectConverter attestationConverter;
    private final PasskeyKeys keys;

    public PasskeyRegistrar(AllowedOrigins origins) {
        this.origins = origins;
        ObjectConverter converter = new ObjectConverter();
        this.manager = WebAuthnManagers.create(converter);
        this.clientDataConverter = new CollectedClientDataConverter(converter);
        this.attestationConverter = new AttestationObjectConverter(converter);
        this.keys = new PasskeyKeys(converter.getCborMapper());
    }

    @Override
    public RegisteredPasskey verify(
            String challenge, String credentialId, String clientDataJson, String attestationObject, String field) {
        String clientDataField = field + ".clientDataJson";
        String attestationField = field + ".attestationObject";
        byte[] clientDataBytes = decode(clientDataJson, clientDataField);
        byte[] attestationBytes = decode(attestationObject, attestationField);
        byte[] claimedId = decode(credentialId, field + ".credentialId");
        CollectedClientData clientData = parseClientData(clientDataBytes, clientDataField);
        AttestationObject attestation = parseAttestation(attestationBytes, attestationField);

        AttestedCredentialData credential = attestation.getAuthenticatorData().getAttestedCredentialData();
        if (credential == null) {
            throw ApiException.badField(attestationField, "carries no attested credential data");
        }
        if (!MessageDigest.isEqual(claimedId, credential.getCredentialId())) {
            throw ApiException.badField(field + ".credentialId", "is not the id of the attested credential");
        }
        Origin origin = clientData.getOrigin();
        if (origin == null || !origins.allows(origin)) {
            throw ApiException.badField(clientDataField, "origin is not allowed");
        }
        if (origin.getHost() == null) {
            throw ApiException.badField(
                    clientDataField,
                    "origin has no host to learn the relying-party id from "
                            + "(native app origins are not supported)");
        }
        String rpId = RelyingPartyId.derive(
                        origin.getHost(), attestation.getAuthenticatorData().getRpIdHash())
                .orElseThrow(() -> ApiException.badField(
                        attestationField, "rpIdHash is the hash of neither the origin's host nor a parent domain"));
        String publicKey;
        try {
            publicKey = keys.apiPublicKey(credential.getCOSEKey());
        } catch (IllegalArgumentException e) {
            throw ApiException.badField(attestationField, e.getMessage());
        }

        ServerProperty server = ServerProperties.of(origins, rpId, new DefaultChallenge(challengeBytes(challenge)));
        RegistrationData data =
                new RegistrationData(attestation, attestationBytes, clientData, clientDataBytes, null, null);
        try {
            manager.verify(data, new RegistrationParameters(server, null, false, true));
        } catch (VerificationException e) {
            VerificationFailures.Reason reason = VerificationFailures.of(e, CREATE);
            throw ApiException.badField(
                    reason.part() == VerificationFailures.Part.CLIENT_DATA ? clientDataField : attestationField,
                    reason.text());
        }
        return new RegisteredPasskey(
                Base64Url.encode(credential.getCredentialId()),
                publicKey,
                keys.coseHex(credential.getCOSEKey()),
                credential.getAaguid().getValue().toString(),
                attestation.getFormat(),
                attestation.getAuthenticatorData().getSignCount(),
                rpId);
    }

    /** The challenge's bytes; one that is not base64url cannot match any client data, so it gets no bytes. */
    private static byte[] challengeBytes(String challenge) {
        try {
            return Base64Url.decode(challenge);
        } catch (IllegalArgumentException e) {
            return new byte[0];
        }
    }

    private CollectedClientData parseClientData(byte[] bytes, String field) {
        try {
            CollectedClientData clientData = clientDataConverter.convert(bytes);
            if (clientData == null || clientData.getType() == null || clientData.getChallenge() == null) {
                throw ApiException.badField(field, "lacks type or challenge");
            }
            return clientData;
        } catch (ApiException e) {
            throw e;
        } catch (RuntimeException e) {
            throw ApiException.badField(field, "is not WebAuthn client data JSON");
        }
    }

    private AttestationObject parseAttestation(byte[] bytes, String field) {
        try {
            AttestationObject attestation = attestationConverter.convert(bytes);
            if (attestation == null || attestation.getAuthenticatorData() == null) {
                throw ApiException.badField(field, "lacks authenticator data");
            }
            return attestation;
        } catch (ApiException e) {
            throw e;
        } catch (RuntimeException e) {
            throw ApiException.badField(field, "is not a CBOR WebAuthn attestation object");
        }
    }

    private static byte[] decode(String text, String field) {
        try {
            return Base64Url.decode(text);
        } catch (IllegalArgumentException e) {
            throw ApiException.badField(field, "is not base64url");
        }
    }
}
