package dev.keyhaven.server.webauthn;

import com.webauthn4j.verifier.exception.BadAlgorithmException;
import com.webauthn4j.verifier.exception.BadAttestationStatementException;
import com.webauthn4j.verifier.exception.BadChallengeException;
import com.webauthn4j.verifier.exception.BadOriginException;
import com.webauthn4j.verifier.exception.BadRpIdException;
import com.webauthn4j.verifier.exception.BadSignatureException;
import com.webauthn4j.verifier.exception.BadTopOriginException;
import com.webauthn4j.verifier.exception.CredentialIdTooLongException;
import com.webauthn4j.verifier.exception.CrossOriginException;
import com.webauthn4j.verifier.exception.InconsistentClientDataTypeException;
import com.webauthn4j.verifier.exception.UserNotPresentException;
import com.webauthn4j.verifier.exception.VerificationException;

/**
 * Turns webauthn4j's verification failures into short reasons for API messages. webauthn4j's own messages are not
 * passed on: some of them echo the challenges and origins of the request.
 */
final class VerificationFailures {
    private VerificationFailures() {}

    /** Which part of the ceremony a failure concerns. */
    enum Part {
        CLIENT_DATA,
        AUTHENTICATOR_DATA
    }

    /** A reason for the failure, and the part of the input it concerns. */
    record Reason(Part part, String text) {}

    static Reason of(VerificationException failure, String expectedType) {
        return switch (failure) {
            case InconsistentClientDataTypeException e -> new Reason(Part.CLIENT_DATA, "type is not " + expectedType);
            case BadChallengeException e -> new Reason(Part.CLIENT_DATA, "challenge does not match");
            case BadOriginException e -> new Reason(Part.CLIENT_DATA, "origin is not allowed");
            case BadTopOriginException e -> new Reason(Part.CLIENT_DATA, "topOrigin is not allowed");
            case CrossOriginException e -> new Reason(Part.CLIENT_DATA, "cross-origin ceremonies are not allowed");
            case BadRpIdException e -> new Reason(Part.AUTHENTICATOR_DATA, "rpIdHash does not match the relying party");
            case UserNotPresentException e -> new Reason(Part.AUTHENTICATOR_DATA, "user-present flag is not set");
            case BadSignatureException e ->
                new Reason(
                        Part.AUTHENTICATOR_DATA,
                        "signature over the authenticator data and client data hash is invalid");
            case BadAlgorithmException e ->
                new Reason(Part.AUTHENTICATOR_DATA, "statement algorithm does not match the credential key");
            case BadAttestationStatementException e ->
                new Reason(Part.AUTHENTICATOR_DATA, "attestation statement does not verify");
            case CredentialIdTooLongException e ->
                new Reason(Part.AUTHENTICATOR_DATA, "credential id is longer than 1023 bytes");
            default ->
                new Reason(
                        Part.AUTHENTICATOR_DATA,
                        "does not verify (" + failure.getClass().getSimpleName().replace("Exception", "") + ")");
        };
    }
}
