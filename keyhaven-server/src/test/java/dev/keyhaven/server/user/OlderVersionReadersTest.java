package dev.keyhaven.server.user;

import static dev.keyhaven.server.testing.ApiErrors.isError;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.keyhaven.client.ApiKeyStamper;
import dev.keyhaven.crypto.EcCurve;
import dev.keyhaven.server.api.ApiException;
import dev.keyhaven.server.api.ErrorCode;
import dev.keyhaven.server.api.JsonMappers;
import dev.keyhaven.server.api.Params;
import dev.keyhaven.server.oidc.OidcVerifier;
import dev.keyhaven.server.testing.TestServer;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The readers of the older user, API key and authenticator shapes that published clients send. */
class OlderVersionReadersTest {
    private final List<String> verified = new ArrayList<>();
    private final AttestationVerifier attestations = (challenge, credentialId, clientData, object, field) -> {
        verified.add(String.join("|", challenge, credentialId, clientData, object, field));
        return new RegisteredPasskey(credentialId, "02ab", "a5", "00", "none", 0, "example.com");
    };
    private final OidcVerifier oidc = new OidcVerifier(List.of(), Clock.systemUTC());

    private static Params params(String json) {
        return Params.of(JsonMappers.strict().readTree(json), "parameters");
    }

    @Test
    void apiApiKeyParamsAreP256AndStoredCompressed() {
        ApiKeyStamper key = TestServer.newKey(ApiKeyStamper.Curve.P256);
        String uncompressed =
                HexFormat.of().formatHex(EcCurve.P256.decompress(HexFormat.of().parseHex(key.publicKey())));

        NewApiKey read = NewApiKey.readP256(params("{\"apiKeyName\":\"k\",\"publicKey\":\"" + uncompressed + "\"}"));

        assertThat(read.curve()).isEqualTo(ApiKeyCurve.API_KEY_CURVE_P256);
        assertThat(read.publicKey()).isEqualTo(key.publicKey());
        assertThatThrownBy(() ->
                        NewApiKey.read(params("{\"apiKeyName\":\"k\",\"publicKey\":\"" + key.publicKey() + "\"}")))
                .isInstanceOfSatisfying(ApiException.class, isError(ErrorCode.BAD_REQUEST, "parameters.curveType"));
    }

    @Test
    void aRawCredentialIsVerifiedFromItsResponse() {
        NewAuthenticator read = NewAuthenticator.readV1(
                params("{\"authenticatorName\":\"laptop\",\"userId\":\"\",\"challenge\":\"ch\",\"attestation\":{"
                        + "\"id\":\"cred\",\"type\":\"public-key\",\"rawId\":\"cred\",\"clientExtensionResults\":{},"
                        + "\"response\":{\"clientDataJson\":\"cd\",\"attestationObject\":\"ao\","
                        + "\"transports\":[\"AUTHENTICATOR_TRANSPORT_USB\"]}}}"),
                attestations);

        assertThat(verified).containsExactly("ch|cred|cd|ao|parameters.attestation.response");
        assertThat(read.name()).isEqualTo("laptop");
        assertThat(read.transports()).containsExactly(AuthenticatorTransport.AUTHENTICATOR_TRANSPORT_USB);
        assertThatThrownBy(() -> NewAuthenticator.readV1(
                        params(
                                "{\"authenticatorName\":\"a\",\"challenge\":\"ch\",\"attestation\":{\"credentialId\":"
                                        + "\"cred\",\"clientDataJson\":\"cd\",\"attestationObject\":\"ao\",\"transports\":[]}}"),
                        attestations))
                .isInstanceOfSatisfying(
                        ApiException.class, isError(ErrorCode.BAD_REQUEST, "parameters.attestation.id"));
    }

    @Test
    void userParamsV2HaveNeitherPhoneNorOauthProviders() {
        ApiKeyStamper key = TestServer.newKey(ApiKeyStamper.Curve.P256);
        Params user = params("{\"userName\":\"u\",\"userPhoneNumber\":\"not a number\",\"oauthProviders\":7,"
                + "\"apiKeys\":[{\"apiKeyName\":\"k\",\"publicKey\":\"" + key.publicKey() + "\"}],"
                + "\"authenticators\":[],\"userTags\":[]}");

        NewUser read = NewUser.read(user, CreateUsersHandler.V2, attestations, oidc);

        assertThat(read.phoneNumber()).isEmpty();
        assertThat(read.oauthProviders()).isEmpty();
        assertThat(read.apiKeys()).extracting(NewApiKey::curve).containsExactly(ApiKeyCurve.API_KEY_CURVE_P256);
        assertThatThrownBy(() -> NewUser.read(user, CreateUsersHandler.V3, attestations, oidc))
                .isInstanceOfSatisfying(
                        ApiException.class, isError(ErrorCode.BAD_REQUEST, "parameters.userPhoneNumber"));
    }

    @Test
    void userParamsV1TakeRawCredentials() {
        Params user = params("{\"userName\":\"u\",\"accessType\":\"ACCESS_TYPE_WEB\",\"apiKeys\":[],\"userTags\":[],"
                + "\"authenticators\":[{\"authenticatorName\":\"a\",\"userId\":\"x\",\"challenge\":\"ch\","
                + "\"attestation\":{\"id\":\"cred\",\"response\":{\"clientDataJson\":\"cd\","
                + "\"attestationObject\":\"ao\"}}}]}");

        NewUser read = NewUser.read(user, CreateUsersHandler.V1, attestations, oidc);

        assertThat(read.authenticators())
                .extracting(a -> a.passkey().credentialId())
                .containsExactly("cred");
        assertThat(read.authenticators().getFirst().transports()).isEmpty();
        assertThatThrownBy(() -> NewUser.read(user, CreateUsersHandler.V2, attestations, oidc))
                .isInstanceOfSatisfying(
                        ApiException.class,
                        isError(ErrorCode.BAD_REQUEST, "parameters.authenticators[0].attestation.credentialId"));
    }
}
