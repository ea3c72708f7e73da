package dev.keyhaven.server.webauthn;

import dev.keyhaven.server.api.ApiException;
import dev.keyhaven.server.api.ErrorCode;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;

/**
 * The decoded value of {@code X-Stamp-WebAuthn}: plain JSON (not base64, unlike {@code X-Stamp}) with the four
 * members of a WebAuthn assertion, each base64url.
 *
 * @param credentialId the credential id, re-encoded as base64url without padding (its storage form)
 */
record WebAuthnStampHeader(
        String credentialId,
        byte[] credentialIdBytes,
        byte[] authenticatorData,
        byte[] clientDataJson,
        byte[] signature) {

    /**
     * Parses a header value with the server's strict JSON reader (duplicate members are refused).
     *
     * @throws ApiException (401, {@link ErrorCode#MALFORMED_STAMP}) when it is not such an object
     */
    static WebAuthnStampHeader parse(ObjectMapper json, String headerValue) {
        JsonNode stamp;
        try {
            stamp = json.readTree(headerValue);
        } catch (JacksonException e) {
            throw malformed("not JSON");
        }
        if (stamp == null || !stamp.isObject()) {
            throw malformed("not a JSON object");
        }
        byte[] credentialId = member(stamp, "credentialId");
        return new WebAuthnStampHeader(
                Base64Url.encode(credentialId),
                credentialId,
                member(stamp, "authenticatorData"),
                member(stamp, "clientDataJson"),
                member(stamp, "signature"));
    }

    private static byte[] member(JsonNode stamp, String name) {
        JsonNode value = stamp.get(name);
        if (value == null || !value.isString() || value.stringValue().isBlank()) {
            throw malformed("missing " + name);
        }
        try {
            return Base64Url.decode(value.stringValue());
        } catch (IllegalArgumentException e) {
            throw malformed(name + " is not base64url");
        }
    }

    static ApiException malformed(String why) {
        return new ApiException(
                ErrorCode.MALFORMED_STAMP,
                "malformed activity stamp: could not extract webauthn " + "stamp (" + why + ")");
    }
}
