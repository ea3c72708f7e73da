package dev.keyhaven.client;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;

/** Request parameter shapes of the operations the typed client offers, mirroring the wire JSON. */
public final class Requests {
    private Requests() {}

    /** {@code v1ApiKeyParamsV2}. {@code expirationSeconds} is null for a long-lived key. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record ApiKeyParams(String apiKeyName, String publicKey, String curveType, String expirationSeconds) {
        public static ApiKeyParams of(String name, ApiKeyStamper stamper) {
            return new ApiKeyParams(name, stamper.publicKey(), stamper.curve().curveType(), null);
        }
    }

    /** {@code v1UserParamsV4}. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record UserParams(
            String userName,
            String userEmail,
            String userPhoneNumber,
            List<ApiKeyParams> apiKeys,
            List<Object> authenticators,
            List<Object> oauthProviders,
            List<String> userTags) {
        public static UserParams withApiKeys(String userName, List<ApiKeyParams> apiKeys) {
            return new UserParams(userName, null, null, apiKeys, List.of(), List.of(), List.of());
        }

        public static UserParams withAuthenticators(String userName, List<AuthenticatorParams> authenticators) {
            return new UserParams(userName, null, null, List.of(), List.copyOf(authenticators), List.of(), List.of());
        }
    }

    /**
     * {@code v1AuthenticatorParamsV2}: a passkey registration. {@code challenge} is the registration challenge as the
     * authenticator saw it (base64url), the one {@code attestation.clientDataJson} must carry.
     */
    public record AuthenticatorParams(String authenticatorName, String challenge, Attestation attestation) {}

    /**
     * {@code v1Attestation}: the browser's registration response, base64url; {@code transports} are
     * {@code AUTHENTICATOR_TRANSPORT_*} values.
     */
    public record Attestation(
            String credentialId, String clientDataJson, String attestationObject, List<String> transports) {}

    /** {@code v1RootUserParamsV5}. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record RootUserParams(
            String userName,
            String userEmail,
            String userPhoneNumber,
            List<ApiKeyParams> apiKeys,
            List<Object> authenticators,
            List<Object> oauthProviders) {
        public static RootUserParams withApiKeys(String userName, List<ApiKeyParams> apiKeys) {
            return new RootUserParams(userName, null, null, apiKeys, List.of(), List.of());
        }
    }

    /** {@code v1WalletAccountParams}; {@code name} may be null. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record WalletAccountParams(String curve, String pathFormat, String path, String addressFormat, String name) {
        /** A BIP-32 account without a name. */
        public static WalletAccountParams of(String curve, String path, String addressFormat) {
            return new WalletAccountParams(curve, "PATH_FORMAT_BIP32", path, addressFormat, null);
        }

        /** The Ethereum account at {@code m/44'/60'/0'/0/index}. */
        public static WalletAccountParams ethereum(int index) {
            return of("CURVE_SECP256K1", "m/44'/60'/0'/0/" + index, "ADDRESS_FORMAT_ETHEREUM");
        }
    }

    /** {@code v1PrivateKeyParams}. */
    public record PrivateKeyParams(
            String privateKeyName, String curve, List<String> privateKeyTags, List<String> addressFormats) {}
}
