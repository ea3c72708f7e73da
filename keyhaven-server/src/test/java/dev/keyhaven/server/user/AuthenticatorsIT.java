package dev.keyhaven.server.user;

import static dev.keyhaven.server.testing.ApiErrors.assertError;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.keyhaven.client.Activity;
import dev.keyhaven.client.KeyhavenApiException;
import dev.keyhaven.client.KeyhavenClient;
import dev.keyhaven.client.Requests.Attestation;
import dev.keyhaven.client.Requests.AuthenticatorParams;
import dev.keyhaven.client.Requests.RootUserParams;
import dev.keyhaven.client.Requests.UserParams;
import dev.keyhaven.server.api.ErrorCode;
import dev.keyhaven.server.testing.SoftwareAuthenticator;
import dev.keyhaven.server.testing.SoftwareAuthenticator.Format;
import dev.keyhaven.server.testing.SoftwareAuthenticator.Tamper;
import dev.keyhaven.server.testing.StoreKind;
import dev.keyhaven.server.testing.TestServer;
import java.time.Clock;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.AfterParameterizedClassInvocation;
import org.junit.jupiter.params.BeforeParameterizedClassInvocation;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;
import tools.jackson.databind.JsonNode;

/**
 * Passkey registration over real HTTP on both stores: users created with passkeys authenticate with them, users
 * manage their own passkeys (create_authenticators, get_authenticators, get_authenticator, delete_authenticators),
 * and registrations that do not verify are refused with the offending field named.
 */
@ParameterizedClass
@EnumSource(StoreKind.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class AuthenticatorsIT {
    private static final String ORIGIN = "https://app.example.com";
    private static final String RP_ID = "example.com";
    private static final String ATTESTATION = "parameters.users[0].authenticators[0].attestation";

    @Parameter
    StoreKind store;

    private TestServer server;
    private KeyhavenClient root;

    @BeforeParameterizedClassInvocation
    void start() {
        server = TestServer.start(
                store, c -> c.withWebAuthnOrigins(List.of(ORIGIN, "http://localhost:3000")), Clock.systemUTC());
        root = server.rootClient();
    }

    @AfterParameterizedClassInvocation
    void stop() {
        if (server != null) {
            server.close();
        }
    }

    @Test
    void rootCreatesAUserWithAPasskeyWhoThenAuthenticatesWithIt() {
        SoftwareAuthenticator passkey = SoftwareAuthenticator.create(ORIGIN, RP_ID);

        Activity activity = root.createUsers(List.of(
                UserParams.withAuthenticators("carol", List.of(passkey.registration("carol's laptop", Format.NONE)))));

        assertThat(activity.status()).isEqualTo("ACTIVITY_STATUS_COMPLETED");
        String userId = activity.result().path("userIds").get(0).asString();
        KeyhavenClient.Whoami whoami = root.withStamper(passkey).whoami();
        assertThat(whoami.userId()).isEqualTo(userId);
        assertThat(whoami.username()).isEqualTo("carol");
        assertThat(whoami.organizationId()).isEqualTo(server.organizationId());

        JsonNode authenticator = root.getUser(userId).path("authenticators").get(0);
        assertThat(authenticator.path("authenticatorName").asString()).isEqualTo("carol's laptop");
        assertThat(authenticator.path("credentialId").asString()).isEqualTo(passkey.credentialId());
        assertThat(authenticator.path("credential").path("publicKey").asString())
                .isEqualTo(passkey.publicKeyHex());
        assertThat(authenticator.path("credential").path("type").asString())
                .isEqualTo("CREDENTIAL_TYPE_WEBAUTHN_AUTHENTICATOR");
        assertThat(authenticator.path("attestationType").asString()).isEqualTo("none");
        assertThat(authenticator.path("aaguid").asString()).isEqualTo("6b657968-6176-656e-2d73-6f6674776172");
        assertThat(authenticator.path("transports").get(0).asString()).isEqualTo("AUTHENTICATOR_TRANSPORT_INTERNAL");
    }

    @Test
    void aUserAddsAndDeletesTheirOwnPasskeys() {
        SoftwareAuthenticator laptop = SoftwareAuthenticator.create(ORIGIN, RP_ID);
        SoftwareAuthenticator phone = SoftwareAuthenticator.create(ORIGIN, RP_ID);
        String userId = root.createUsers(List.of(UserParams.withAuthenticators(
                        "dave", List.of(laptop.registration("laptop", Format.PACKED_SELF)))))
                .result()
                .path("userIds")
                .get(0)
                .asString();
        KeyhavenClient dave = root.withStamper(laptop);

        Activity added = dave.createAuthenticators(userId, List.of(phone.registration("phone", Format.PACKED_SELF)));

        assertThat(added.status()).isEqualTo("ACTIVITY_STATUS_COMPLETED");
        String phoneId = added.result().path("authenticatorIds").get(0).asString();
        assertThat(dave.getAuthenticators(userId))
                .extracting(a -> a.path("authenticatorName").asString())
                .containsExactly("laptop", "phone");
        JsonNode phoneView = dave.getAuthenticator(phoneId);
        assertThat(phoneView.path("credentialId").asString()).isEqualTo(phone.credentialId());
        assertThat(phoneView.path("attestationType").asString()).isEqualTo("packed");
        assertThat(phoneView.path("credential").path("publicKey").asString()).isEqualTo(phone.publicKeyHex());
        assertThat(root.withStamper(phone).whoami().userId()).isEqualTo(userId);

        Activity deleted = dave.deleteAuthenticators(userId, List.of(phoneId));

        assertThat(deleted.status()).isEqualTo("ACTIVITY_STATUS_COMPLETED");
        assertThat(deleted.result().path("authenticatorIds").get(0).asString()).isEqualTo(phoneId);
        assertThatThrownBy(() -> root.withStamper(phone).whoami())
                .isInstanceOfSatisfying(KeyhavenApiException.class, e -> {
                    assertThat(e.httpStatus()).isEqualTo(401);
                    assertThat(e.turnkeyErrorCode()).isEqualTo("CREDENTIAL_NOT_FOUND");
                });
        assertThat(dave.whoami().userId()).isEqualTo(userId);
        assertThat(dave.getAuthenticators(userId))
                .extracting(a -> a.path("authenticatorName").asString())
                .containsExactly("laptop");
    }

    @Test
    void aPasskeyMadeWithTheReactNativeHexChallengeRegisters() {
        SoftwareAuthenticator passkey = SoftwareAuthenticator.create("http://localhost:3000", "localhost");
        byte[] random = new byte[32];
        ThreadLocalRandom.current().nextBytes(random);

        Activity activity = root.createUsers(List.of(UserParams.withAuthenticators(
                "erin",
                List.of(passkey.registration(
                        "phone", Format.NONE, HexFormat.of().formatHex(random), Tamper.NOTHING)))));

        assertThat(activity.status()).isEqualTo("ACTIVITY_STATUS_COMPLETED");
        assertThat(root.withStamper(passkey).whoami().username()).isEqualTo("erin");
    }

    @Test
    void aSubOrganizationRootUserWithAPasskeyIsFoundByWhoamiFromTheParent() {
        SoftwareAuthenticator passkey = SoftwareAuthenticator.create(ORIGIN, RP_ID);
        Activity created = root.createSubOrganization(
                "passkey sub-organization",
                List.of(new RootUserParams(
                        "frank",
                        null,
                        null,
                        List.of(),
                        List.of(passkey.registration("frank's key", Format.PACKED_SELF)),
                        List.of())),
                1);
        String subOrganizationId = created.result().path("subOrganizationId").asString();

        KeyhavenClient.Whoami whoami = root.withStamper(passkey).whoami();

        assertThat(whoami.organizationId()).isEqualTo(subOrganizationId);
        assertThat(whoami.username()).isEqualTo("frank");
    }

    @Test
    void aRegistrationForAnotherChallengeIsA400NamingTheClientData() {
        assertRefused(Format.NONE, Tamper.CHALLENGE, ATTESTATION + ".clientDataJson", "challenge does not match");
    }

    @Test
    void aRegistrationOfTheWrongCeremonyTypeIsA400NamingTheClientData() {
        assertRefused(Format.NONE, Tamper.TYPE, ATTESTATION + ".clientDataJson", "type is not webauthn.create");
    }

    @Test
    void aRegistrationFromAnOriginNotAllowedIsA400NamingTheClientData() {
        assertRefused(Format.NONE, Tamper.ORIGIN, ATTESTATION + ".clientDataJson", "origin is not allowed");
    }

    @Test
    void aTamperedAttestationStatementIsA400NamingTheAttestationObject() {
        assertRefused(Format.PACKED_SELF, Tamper.SIGNATURE, ATTESTATION + ".attestationObject", "is invalid");
    }

    @Test
    void aRegistrationWithoutUserPresenceIsA400NamingTheAttestationObject() {
        assertRefused(
                Format.NONE,
                Tamper.USER_NOT_PRESENT,
                ATTESTATION + ".attestationObject",
                "user-present flag is not set");
    }

    @Test
    void aRegistrationNamingAnotherCredentialIsA400NamingTheCredentialId() {
        assertRefused(
                Format.NONE,
                Tamper.CREDENTIAL_ID,
                ATTESTATION + ".credentialId",
                "is not the id of the attested credential");
    }

    @Test
    void aRegistrationThatIsNotCborIsA400NamingTheAttestationObject() {
        AuthenticatorParams good = SoftwareAuthenticator.create(ORIGIN, RP_ID).registration("key", Format.NONE);
        AuthenticatorParams broken = new AuthenticatorParams(
                good.authenticatorName(),
                good.challenge(),
                new Attestation(
                        good.attestation().credentialId(),
                        good.attestation().clientDataJson(),
                        "AAECAw",
                        good.attestation().transports()));

        assertThatThrownBy(() -> root.createUsers(List.of(UserParams.withAuthenticators("ghost", List.of(broken)))))
                .isInstanceOfSatisfying(
                        KeyhavenApiException.class,
                        e -> assertError(e, ErrorCode.BAD_REQUEST, ATTESTATION + ".attestationObject"));
    }

    private void assertRefused(Format format, Tamper tamper, String field, String problem) {
        AuthenticatorParams registration =
                SoftwareAuthenticator.create(ORIGIN, RP_ID).registration("key", format, tamper);

        assertThatThrownBy(() ->
                        root.createUsers(List.of(UserParams.withAuthenticators("mallory", List.of(registration)))))
                .isInstanceOfSatisfying(KeyhavenApiException.class, e -> {
                    assertError(e, ErrorCode.BAD_REQUEST, field);
                    assertThat(e.serverMessage())
                            .startsWith("bad request body: " + field + " ")
                            .contains(problem);
                });
        assertThat(root.listUsers())
                .extracting(u -> u.path("userName").asString())
                .doesNotContain("mallory");
    }
}
