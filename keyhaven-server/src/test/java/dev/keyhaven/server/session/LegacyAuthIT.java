package dev.keyhaven.server.session;

import static dev.keyhaven.server.testing.ApiErrors.apiError;
import static org.assertj.core.api.Assertions.assertThat;

import com.icegreen.greenmail.util.GreenMail;
import com.icegreen.greenmail.util.ServerSetup;
import dev.keyhaven.client.Activity;
import dev.keyhaven.client.ApiKeyStamper;
import dev.keyhaven.client.KeyhavenApiException;
import dev.keyhaven.client.KeyhavenClient;
import dev.keyhaven.client.Requests;
import dev.keyhaven.crypto.bundle.TurnkeyHpke;
import dev.keyhaven.server.api.ErrorCode;
import dev.keyhaven.server.app.KeyhavenConfig;
import dev.keyhaven.server.mail.MailSettings;
import dev.keyhaven.server.testing.Bundles.TargetKey;
import dev.keyhaven.server.testing.EmailedCodes;
import dev.keyhaven.server.testing.MutableClock;
import dev.keyhaven.server.testing.OnBothStores;
import dev.keyhaven.server.testing.TestServer;
import jakarta.mail.BodyPart;
import jakarta.mail.Multipart;
import jakarta.mail.internet.MimeMessage;
import java.time.Clock;
import java.time.Duration;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The older credential-bundle sign-ins that published SDKs still send, over real HTTP and real SMTP (GreenMail):
 * email_auth V1–V3 (the bundle arrives by email, opens with the target key, and its key stamps whoami) and
 * init_otp_auth V1–V3 with otp_auth (the code by email, the bundle in the answer), with their error paths; a parent
 * organization's user initiating them for a sub-organization (decided by the parent's policies), the credential types
 * of the keys they issue, and the older and newer OTP flows kept apart.
 * {@code oauth} is tested beside oauth_login, in OidcIT, where the OIDC issuer is.
 */
class LegacyAuthIT extends OnBothStores {
    private static final String FROM = "keyhaven@test.example";
    private static final Pattern BUNDLE = Pattern.compile("signin\\?b=([1-9A-HJ-NP-Za-km-z]+)");
    private static final HexFormat HEX = HexFormat.of();

    private final MutableClock clock = MutableClock.ticking();
    private GreenMail smtp;
    private KeyhavenClient client;

    @Override
    protected Clock clock() {
        return clock;
    }

    @Override
    protected KeyhavenConfig configure(KeyhavenConfig defaults) {
        smtp = new GreenMail(new ServerSetup(0, "127.0.0.1", ServerSetup.PROTOCOL_SMTP));
        smtp.start();
        return defaults.withMail(new MailSettings(
                Optional.of(new MailSettings.Smtp(
                        "127.0.0.1",
                        smtp.getSmtp().getPort(),
                        MailSettings.Security.NONE,
                        Optional.empty(),
                        Optional.empty(),
                        Duration.ofSeconds(10))),
                FROM,
                Optional.empty()));
    }

    @BeforeEach
    void freshMailboxAndClient() throws Exception {
        smtp.purgeEmailFromAllMailboxes();
        client = root.withClock(clock);
    }

    @AfterAll
    void stopSmtp() {
        if (smtp != null) {
            smtp.stop();
        }
    }

    // ---- email_auth ------------------------------------------------------------------------------------------

    @Test
    void emailAuthV3MailsABundleWhoseKeyStampsAsTheUser() throws Exception {
        String email = uniqueEmail();
        String userId = newUser(email);
        TargetKey target = TargetKey.generate();
        Map<String, Object> p = emailAuth(email, target);
        p.put(
                "emailCustomization",
                Map.of("appName", "Acme Wallet", "magicLinkTemplate", "https://acme.example/signin?b=%s"));
        p.put("apiKeyName", "acme sign-in");
        Activity done = client.submit("email_auth", "ACTIVITY_TYPE_EMAIL_AUTH_V3", p, "emailAuthResult");

        assertThat(done.status()).isEqualTo("ACTIVITY_STATUS_COMPLETED");
        assertThat(done.result().path("userId").asString()).isEqualTo(userId);
        String apiKeyId = done.result().path("apiKeyId").asString();
        assertThat(apiKeyId).isNotEmpty();
        // The bundle is in the email only.
        assertThat(done.result().has("credentialBundle")).isFalse();

        MimeMessage mail = onlyMessage();
        assertThat(mail.getSubject()).isEqualTo("Sign in to Acme Wallet");
        assertThat(mail.getAllRecipients()[0].toString()).isEqualTo(email);
        String bundle = bundleIn(part(mail, "text/plain"));
        KeyhavenClient signedIn = bundleClient(bundle, target);
        assertThat(signedIn.whoami().userId()).isEqualTo(userId);

        // An expiring API key of the user, with the name asked for.
        List<String> names = new java.util.ArrayList<>();
        for (var key : client.getUser(userId).path("apiKeys")) {
            if (key.path("apiKeyId").asString().equals(apiKeyId)) {
                names.add(key.path("apiKeyName").asString());
                assertThat(key.path("expirationSeconds").asString()).isEqualTo("900");
            }
        }
        assertThat(names).containsExactly("acme sign-in");
    }

    @Test
    void emailAuthV1AndV2NeedNoCustomizationAndTheKeyExpires() throws Exception {
        String email = uniqueEmail();
        String userId = newUser(email);
        for (String type : List.of("ACTIVITY_TYPE_EMAIL_AUTH", "ACTIVITY_TYPE_EMAIL_AUTH_V2")) {
            smtp.purgeEmailFromAllMailboxes();
            TargetKey target = TargetKey.generate();
            Map<String, Object> p = emailAuth(email, target);
            p.put("expirationSeconds", "60");
            Activity done = client.submit("email_auth", type, p, "emailAuthResult");
            assertThat(done.result().path("userId").asString()).isEqualTo(userId);
            MimeMessage mail = onlyMessage();
            assertThat(mail.getSubject()).isEqualTo("Sign in to Keyhaven");
            String text = part(mail, "text/plain");
            Matcher m = Pattern.compile("sign-in code into Keyhaven:\\s+(\\S+)").matcher(text);
            assertThat(m.find()).as(text).isTrue();
            KeyhavenClient signedIn = bundleClient(m.group(1), target);
            assertThat(signedIn.whoami().userId()).isEqualTo(userId);
            if (type.endsWith("_V2")) {
                clock.advance(Duration.ofSeconds(61));
                apiError(ErrorCode.API_KEY_EXPIRED, null, signedIn::whoami);
            }
        }
    }

    @Test
    void emailAuthInvalidateExistingEndsTheUsersEarlierKey() throws Exception {
        String email = uniqueEmail();
        String userId = newUser(email);
        TargetKey first = TargetKey.generate();
        client.submit("email_auth", "ACTIVITY_TYPE_EMAIL_AUTH_V2", emailAuth(email, first), "emailAuthResult");
        KeyhavenClient firstClient = bundleClient(codeIn(onlyMessage()), first);
        assertThat(firstClient.whoami().userId()).isEqualTo(userId);

        smtp.purgeEmailFromAllMailboxes();
        TargetKey second = TargetKey.generate();
        Map<String, Object> p = emailAuth(email, second);
        p.put("invalidateExisting", true);
        client.submit("email_auth", "ACTIVITY_TYPE_EMAIL_AUTH_V2", p, "emailAuthResult");
        assertThat(bundleClient(codeIn(onlyMessage()), second).whoami().userId())
                .isEqualTo(userId);
        apiError(ErrorCode.PUBLIC_KEY_NOT_FOUND, null, firstClient::whoami);
    }

    @Test
    void emailAuthErrorsNameTheFieldAndMailNothing() throws Exception {
        String email = uniqueEmail();
        newUser(email);
        KeyhavenApiException unknown = apiError(
                ErrorCode.NOT_FOUND,
                null,
                () -> client.submit(
                        "email_auth",
                        "ACTIVITY_TYPE_EMAIL_AUTH_V2",
                        emailAuth(uniqueEmail(), TargetKey.generate()),
                        "emailAuthResult"));
        assertThat(unknown.serverMessage()).startsWith("no user of this organization has the email ");

        Map<String, Object> badKey = emailAuth(email, TargetKey.generate());
        badKey.put("targetPublicKey", "04abcd");
        apiError(
                ErrorCode.BAD_REQUEST,
                "parameters.targetPublicKey",
                () -> client.submit("email_auth", "ACTIVITY_TYPE_EMAIL_AUTH_V2", badKey, "emailAuthResult"));

        Map<String, Object> badEmail = emailAuth("not-an-address", TargetKey.generate());
        apiError(
                ErrorCode.BAD_REQUEST,
                "parameters.email",
                () -> client.submit("email_auth", "ACTIVITY_TYPE_EMAIL_AUTH", badEmail, "emailAuthResult"));

        // V3 requires emailCustomization with its appName.
        apiError(
                ErrorCode.BAD_REQUEST,
                "parameters.emailCustomization",
                () -> client.submit(
                        "email_auth",
                        "ACTIVITY_TYPE_EMAIL_AUTH_V3",
                        emailAuth(email, TargetKey.generate()),
                        "emailAuthResult"));
        Map<String, Object> noAppName = emailAuth(email, TargetKey.generate());
        noAppName.put("emailCustomization", Map.of("logoUrl", "https://acme.example/logo.png"));
        apiError(
                ErrorCode.BAD_REQUEST,
                "parameters.emailCustomization.appName",
                () -> client.submit("email_auth", "ACTIVITY_TYPE_EMAIL_AUTH_V3", noAppName, "emailAuthResult"));

        Map<String, Object> tooLong = emailAuth(email, TargetKey.generate());
        tooLong.put("expirationSeconds", "86401");
        apiError(
                ErrorCode.BAD_REQUEST,
                "parameters.expirationSeconds",
                () -> client.submit("email_auth", "ACTIVITY_TYPE_EMAIL_AUTH_V2", tooLong, "emailAuthResult"));

        Map<String, Object> badLink = emailAuth(email, TargetKey.generate());
        badLink.put("emailCustomization", Map.of("magicLinkTemplate", "https://acme.example/no-placeholder"));
        apiError(
                ErrorCode.BAD_REQUEST,
                "parameters.emailCustomization.magicLinkTemplate",
                () -> client.submit("email_auth", "ACTIVITY_TYPE_EMAIL_AUTH_V2", badLink, "emailAuthResult"));

        assertThat(smtp.getReceivedMessages()).isEmpty();
    }

    // ---- init_otp_auth / otp_auth ----------------------------------------------------------------------------

    @Test
    void eachInitOtpAuthVersionSendsACodeThatOtpAuthSpendsOnABundle() throws Exception {
        String email = uniqueEmail();
        String userId = newUser(email);
        Map<String, Pattern> codeShapes = new LinkedHashMap<>();
        codeShapes.put("ACTIVITY_TYPE_INIT_OTP_AUTH", Pattern.compile("[0-9]{6}"));
        codeShapes.put("ACTIVITY_TYPE_INIT_OTP_AUTH_V2", Pattern.compile("[0-9]{7}"));
        codeShapes.put("ACTIVITY_TYPE_INIT_OTP_AUTH_V3", Pattern.compile("[0-9A-Z]{9}"));
        for (Map.Entry<String, Pattern> version : codeShapes.entrySet()) {
            smtp.purgeEmailFromAllMailboxes();
            Map<String, Object> p = new LinkedHashMap<>();
            p.put("otpType", "OTP_TYPE_EMAIL");
            p.put("contact", email);
            if (version.getKey().endsWith("_V2")) {
                p.put("otpLength", 7);
                p.put("alphanumeric", false);
            }
            if (version.getKey().endsWith("_V3")) {
                p.put("appName", "Acme");
            }
            String resultKey = version.getKey().endsWith("AUTH") ? "initOtpAuthResult" : "initOtpAuthResultV2";
            Activity init = client.submit("init_otp_auth", version.getKey(), p, resultKey);
            assertThat(init.status()).isEqualTo("ACTIVITY_STATUS_COMPLETED");
            String otpId = init.result().path("otpId").asString();
            assertThat(init.result().has("otpEncryptionTargetBundle")).isFalse();
            String code = EmailedCodes.latest(smtp);
            assertThat(code).matches(version.getValue());

            TargetKey target = TargetKey.generate();
            Activity auth = otpAuth(otpId, code, target);
            assertThat(auth.result().path("userId").asString()).isEqualTo(userId);
            assertThat(auth.result().path("apiKeyId").asString()).isNotEmpty();
            KeyhavenClient signedIn =
                    bundleClient(auth.result().path("credentialBundle").asString(), target);
            assertThat(signedIn.whoami().userId()).isEqualTo(userId);
        }
    }

    @Test
    void otpAuthRefusesWrongUsedAndExpiredCodes() throws Exception {
        String email = uniqueEmail();
        newUser(email);
        String otpId = initOtpAuth(email);
        String code = EmailedCodes.latest(smtp);
        KeyhavenApiException wrong = apiError(
                ErrorCode.BAD_REQUEST, null, () -> otpAuth(otpId, code.equals("000000") ? "111111" : "000000", null));
        assertThat(wrong.serverMessage()).startsWith("invalid OTP code (");
        otpAuth(otpId, code, TargetKey.generate());
        KeyhavenApiException used = apiError(ErrorCode.BAD_REQUEST, null, () -> otpAuth(otpId, code, null));
        assertThat(used.serverMessage()).isEqualTo("this OTP was already used; request a new code");

        smtp.purgeEmailFromAllMailboxes();
        String later = initOtpAuth(email);
        String laterCode = EmailedCodes.latest(smtp);
        clock.advance(Duration.ofMinutes(6));
        KeyhavenApiException expired = apiError(ErrorCode.BAD_REQUEST, null, () -> otpAuth(later, laterCode, null));
        assertThat(expired.serverMessage()).isEqualTo("this OTP has expired; request a new code");

        KeyhavenApiException unknown = apiError(
                ErrorCode.NOT_FOUND, null, () -> otpAuth(UUID.randomUUID().toString(), "123456", null));
        assertThat(unknown.serverMessage()).startsWith("no OTP with id ");
    }

    @Test
    void otpAuthForAContactNobodyHasIsNotFoundAndBadParametersNameTheField() throws Exception {
        String otpId = initOtpAuth(uniqueEmail());
        String code = EmailedCodes.latest(smtp);
        KeyhavenApiException nobody =
                apiError(ErrorCode.NOT_FOUND, null, () -> otpAuth(otpId, code, TargetKey.generate()));
        assertThat(nobody.serverMessage())
                .isEqualTo("no user of this organization has the contact this code was sent to");

        Map<String, Object> badKey = new LinkedHashMap<>(Map.of("otpId", otpId, "otpCode", code));
        badKey.put("targetPublicKey", "zz");
        apiError(
                ErrorCode.BAD_REQUEST,
                "parameters.targetPublicKey",
                () -> client.submit("otp_auth", "ACTIVITY_TYPE_OTP_AUTH", badKey, "otpAuthResult"));
        apiError(
                ErrorCode.BAD_REQUEST,
                "parameters.otpCode",
                () -> client.submit(
                        "otp_auth",
                        "ACTIVITY_TYPE_OTP_AUTH",
                        Map.of(
                                "otpId",
                                otpId,
                                "targetPublicKey",
                                TargetKey.generate().compressed()),
                        "otpAuthResult"));
        apiError(
                ErrorCode.BAD_REQUEST,
                "parameters.contact",
                () -> client.submit(
                        "init_otp_auth",
                        "ACTIVITY_TYPE_INIT_OTP_AUTH_V2",
                        Map.of("otpType", "OTP_TYPE_EMAIL", "contact", "nobody"),
                        "initOtpAuthResultV2"));
        apiError(
                ErrorCode.BAD_REQUEST,
                "parameters.appName",
                () -> client.submit(
                        "init_otp_auth",
                        "ACTIVITY_TYPE_INIT_OTP_AUTH_V3",
                        Map.of("otpType", "OTP_TYPE_EMAIL", "contact", uniqueEmail()),
                        "initOtpAuthResultV2"));
        apiError(
                ErrorCode.BAD_REQUEST,
                "parameters.otpLength",
                () -> client.submit(
                        "init_otp_auth",
                        "ACTIVITY_TYPE_INIT_OTP_AUTH_V2",
                        Map.of("otpType", "OTP_TYPE_EMAIL", "contact", uniqueEmail(), "otpLength", 4),
                        "initOtpAuthResultV2"));
    }

    // ---- initiated by the parent for a sub-organization ------------------------------------------------------

    @Test
    void aParentApiUserSignsInASubOrganizationUserWithEmailAuthAndOtpAuth() throws Exception {
        String email = uniqueEmail();
        SubOrganization sub = newSubOrganization(email);
        KeyhavenClient parentOnSub = client.forOrganization(sub.id());

        TargetKey target = TargetKey.generate();
        Map<String, Object> p = emailAuth(email, target);
        p.put("emailCustomization", Map.of("appName", "Acme", "magicLinkTemplate", "https://acme.example/signin?b=%s"));
        Activity emailed = parentOnSub.submit("email_auth", "ACTIVITY_TYPE_EMAIL_AUTH_V3", p, "emailAuthResult");
        assertThat(emailed.status()).isEqualTo("ACTIVITY_STATUS_COMPLETED");
        // Recorded in the sub-organization, where the parent may read it.
        assertThat(emailed.organizationId()).isEqualTo(sub.id());
        assertThat(parentOnSub.getActivity(emailed.id()).path("organizationId").asString())
                .isEqualTo(sub.id());
        assertThat(emailed.result().path("userId").asString()).isEqualTo(sub.userId());
        KeyhavenClient signedIn = bundleClient(bundleIn(part(onlyMessage(), "text/plain")), target)
                .forOrganization(sub.id());
        assertThat(signedIn.whoami().userId()).isEqualTo(sub.userId());

        smtp.purgeEmailFromAllMailboxes();
        String otpId = parentOnSub
                .submit(
                        "init_otp_auth",
                        "ACTIVITY_TYPE_INIT_OTP_AUTH_V3",
                        Map.of("otpType", "OTP_TYPE_EMAIL", "contact", email, "appName", "Acme"),
                        "initOtpAuthResultV2")
                .result()
                .path("otpId")
                .asString();
        TargetKey otpTarget = TargetKey.generate();
        Activity auth = parentOnSub.submit(
                "otp_auth",
                "ACTIVITY_TYPE_OTP_AUTH",
                Map.of("otpId", otpId, "otpCode", EmailedCodes.latest(smtp), "targetPublicKey", otpTarget.compressed()),
                "otpAuthResult");
        assertThat(auth.organizationId()).isEqualTo(sub.id());
        assertThat(auth.result().path("userId").asString()).isEqualTo(sub.userId());
        assertThat(bundleClient(auth.result().path("credentialBundle").asString(), otpTarget)
                        .forOrganization(sub.id())
                        .whoami()
                        .userId())
                .isEqualTo(sub.userId());

        // Each kind of key is listed with its own credential type.
        assertThat(credentialTypes(parentOnSub, sub.userId()))
                .containsEntry(emailed.result().path("apiKeyId").asString(), "CREDENTIAL_TYPE_EMAIL_AUTH_KEY_P256")
                .containsEntry(auth.result().path("apiKeyId").asString(), "CREDENTIAL_TYPE_OTP_AUTH_KEY_P256");
    }

    @Test
    void theParentsPoliciesDecideNotTheSubOrganizations() throws Exception {
        String email = uniqueEmail();
        SubOrganization sub = newSubOrganization(email);
        ApiKeyStamper aliceKey = TestServer.newKey(ApiKeyStamper.Curve.P256);
        String aliceId = client.createUsers(List.of(Requests.UserParams.withApiKeys(
                        "alice-" + UUID.randomUUID(), List.of(Requests.ApiKeyParams.of("k", aliceKey)))))
                .result()
                .path("userIds")
                .get(0)
                .asString();
        KeyhavenClient aliceOnSub = client.withStamper(aliceKey).forOrganization(sub.id());
        // A policy of the sub-organization naming alice is not what decides.
        KeyhavenClient subRoot = client.withStamper(sub.rootKey()).forOrganization(sub.id());
        assertThat(subRoot.createPolicy(
                                "alice in the sub-organization",
                                "EFFECT_ALLOW",
                                "activity.resource == 'AUTH'",
                                "approvers.any(u, u.id == '" + aliceId + "')",
                                "not the deciding organization",
                                null)
                        .status())
                .isEqualTo("ACTIVITY_STATUS_COMPLETED");

        Activity denied = aliceOnSub.submit(
                "email_auth", "ACTIVITY_TYPE_EMAIL_AUTH_V2", emailAuth(email, TargetKey.generate()), "emailAuthResult");
        assertThat(denied.status()).isEqualTo("ACTIVITY_STATUS_FAILED");
        assertThat(denied.organizationId()).isEqualTo(sub.id());
        assertThat(denied.failure().orElseThrow().code())
                .isEqualTo(ErrorCode.REQUEST_NOT_AUTHORIZED.grpc().number());
        assertThat(denied.failure().orElseThrow().message()).contains("implicit deny");
        assertThat(smtp.getReceivedMessages()).isEmpty();

        // The parent's ALLOW for AUTH/CREATE lets alice initiate it.
        assertThat(client.createPolicy(
                                "alice signs sub-organization users in",
                                "EFFECT_ALLOW",
                                "activity.resource == 'AUTH' && activity.action == 'CREATE'",
                                "approvers.any(u, u.id == '" + aliceId + "')",
                                "legacy sign-ins",
                                null)
                        .status())
                .isEqualTo("ACTIVITY_STATUS_COMPLETED");
        Activity allowed = aliceOnSub.submit(
                "email_auth", "ACTIVITY_TYPE_EMAIL_AUTH_V2", emailAuth(email, TargetKey.generate()), "emailAuthResult");
        assertThat(allowed.status()).isEqualTo("ACTIVITY_STATUS_COMPLETED");
        assertThat(allowed.result().path("userId").asString()).isEqualTo(sub.userId());
    }

    @Test
    void onlyTheSubOrganizationsOwnParentMayInitiateAndNothingElse() throws Exception {
        String email = uniqueEmail();
        SubOrganization sub = newSubOrganization(email);
        SubOrganization sibling = newSubOrganization(uniqueEmail());
        // The sibling's root is a user of another parent (well, of no parent of this sub-organization).
        apiError(
                ErrorCode.PUBLIC_KEY_NOT_FOUND,
                null,
                () -> client.withStamper(sibling.rootKey())
                        .forOrganization(sub.id())
                        .submit(
                                "email_auth",
                                "ACTIVITY_TYPE_EMAIL_AUTH_V2",
                                emailAuth(email, TargetKey.generate()),
                                "emailAuthResult"));

        // Other activities stay read-only for the parent.
        KeyhavenApiException mismatch = apiError(
                ErrorCode.INVALID_ACTIVITY_CALLER,
                null,
                () -> client.forOrganization(sub.id()).createWallet("parent's wallet", List.of()));
        assertThat(mismatch.serverMessage())
                .isEqualTo("organization mismatch: request is targeting organization (" + sub.id()
                        + "), but voters are in organization (" + server.organizationId() + ")");
        // And a sub-organization's user may not initiate a sign-in in the parent.
        apiError(
                ErrorCode.PUBLIC_KEY_NOT_FOUND,
                null,
                () -> client.withStamper(sub.rootKey())
                        .submit(
                                "email_auth",
                                "ACTIVITY_TYPE_EMAIL_AUTH_V2",
                                emailAuth(email, TargetKey.generate()),
                                "emailAuthResult"));
        assertThat(smtp.getReceivedMessages()).isEmpty();
    }

    // ---- credential types and invalidateExisting ----------------------------------------------------------------

    @Test
    void invalidateExistingEndsOnlyTheEarlierKeysOfTheSameKind() throws Exception {
        String email = uniqueEmail();
        String userId = newUser(email);
        ApiKeyStamper expiringKey = TestServer.newKey(ApiKeyStamper.Curve.P256);
        String expiringId = client.createApiKeys(
                        userId,
                        List.of(new Requests.ApiKeyParams(
                                "an expiring key", expiringKey.publicKey(), "API_KEY_CURVE_P256", "3600")))
                .result()
                .path("apiKeyIds")
                .get(0)
                .asString();
        String emailKey1 = client.submit(
                        "email_auth",
                        "ACTIVITY_TYPE_EMAIL_AUTH_V2",
                        emailAuth(email, TargetKey.generate()),
                        "emailAuthResult")
                .result()
                .path("apiKeyId")
                .asString();
        smtp.purgeEmailFromAllMailboxes();
        String otpId = initOtpAuth(email);
        String otpKey1 = otpAuth(otpId, EmailedCodes.latest(smtp), null)
                .result()
                .path("apiKeyId")
                .asString();
        assertThat(credentialTypes(client, userId))
                .containsEntry(expiringId, "CREDENTIAL_TYPE_API_KEY_P256")
                .containsEntry(emailKey1, "CREDENTIAL_TYPE_EMAIL_AUTH_KEY_P256")
                .containsEntry(otpKey1, "CREDENTIAL_TYPE_OTP_AUTH_KEY_P256");

        smtp.purgeEmailFromAllMailboxes();
        Map<String, Object> again = emailAuth(email, TargetKey.generate());
        again.put("invalidateExisting", true);
        String emailKey2 = client.submit("email_auth", "ACTIVITY_TYPE_EMAIL_AUTH_V2", again, "emailAuthResult")
                .result()
                .path("apiKeyId")
                .asString();
        assertThat(credentialTypes(client, userId).keySet())
                .contains(expiringId, otpKey1, emailKey2)
                .doesNotContain(emailKey1);

        smtp.purgeEmailFromAllMailboxes();
        String otpId2 = initOtpAuth(email);
        String otpKey2 = client.submit(
                        "otp_auth",
                        "ACTIVITY_TYPE_OTP_AUTH",
                        Map.of(
                                "otpId",
                                otpId2,
                                "otpCode",
                                EmailedCodes.latest(smtp),
                                "targetPublicKey",
                                TargetKey.generate().compressed(),
                                "invalidateExisting",
                                true),
                        "otpAuthResult")
                .result()
                .path("apiKeyId")
                .asString();
        assertThat(credentialTypes(client, userId).keySet())
                .contains(expiringId, emailKey2, otpKey2)
                .doesNotContain(otpKey1);
    }

    // ---- the older and newer OTP flows do not mix ------------------------------------------------------------

    @Test
    void anOtpOfOneFlowIsRefusedByTheOtherWithoutBeingSpent() throws Exception {
        String email = uniqueEmail();
        String userId = newUser(email);
        String newer = client.submit(
                        "init_otp",
                        "ACTIVITY_TYPE_INIT_OTP_V3",
                        Map.of("otpType", "OTP_TYPE_EMAIL", "contact", email, "appName", "Acme"),
                        "initOtpResultV2")
                .result()
                .path("otpId")
                .asString();
        String newerCode = EmailedCodes.latest(smtp);
        KeyhavenApiException crossed =
                apiError(ErrorCode.BAD_REQUEST, null, () -> otpAuth(newer, newerCode, TargetKey.generate()));
        assertThat(crossed.serverMessage())
                .isEqualTo("this OTP was sent by init_otp, so only verify_otp checks its code "
                        + "(the older and newer OTP sign-ins do not mix)");

        smtp.purgeEmailFromAllMailboxes();
        String older = initOtpAuth(email);
        String olderCode = EmailedCodes.latest(smtp);
        KeyhavenApiException crossedBack = apiError(
                ErrorCode.BAD_REQUEST,
                null,
                () -> client.submit(
                        "verify_otp",
                        "ACTIVITY_TYPE_VERIFY_OTP_V2",
                        Map.of("otpId", older, "encryptedOtpBundle", "not looked at"),
                        "verifyOtpResult"));
        assertThat(crossedBack.serverMessage())
                .isEqualTo("this OTP was sent by init_otp_auth, so only otp_auth checks its code "
                        + "(the older and newer OTP sign-ins do not mix)");
        // Neither counted as a wrong code nor spent: otp_auth still takes it.
        assertThat(otpAuth(older, olderCode, null).result().path("userId").asString())
                .isEqualTo(userId);
    }

    // ---- helpers ---------------------------------------------------------------------------------------------

    /** A sub-organization of the root organization: its root user (with {@code rootKey}) has {@code email}. */
    private record SubOrganization(String id, String userId, ApiKeyStamper rootKey) {}

    private SubOrganization newSubOrganization(String email) {
        ApiKeyStamper rootKey = TestServer.newKey(ApiKeyStamper.Curve.P256);
        String id = client.createSubOrganization(
                        "sub-" + UUID.randomUUID(),
                        List.of(new Requests.RootUserParams(
                                "sub user",
                                email,
                                null,
                                List.of(Requests.ApiKeyParams.of("k", rootKey)),
                                List.of(),
                                List.of())),
                        1)
                .result()
                .path("subOrganizationId")
                .asString();
        String userId = client.withStamper(rootKey).forOrganization(id).whoami().userId();
        return new SubOrganization(id, userId, rootKey);
    }

    /** The user's API keys as get_api_keys lists them: id → credential type. */
    private static Map<String, String> credentialTypes(KeyhavenClient reader, String userId) {
        Map<String, String> types = new LinkedHashMap<>();
        for (var key : reader.getApiKeys(userId)) {
            types.put(
                    key.path("apiKeyId").asString(),
                    key.path("credential").path("type").asString());
        }
        return types;
    }

    private String newUser(String email) {
        ApiKeyStamper key = TestServer.newKey(ApiKeyStamper.Curve.P256);
        return client.createUsers(List.of(new Requests.UserParams(
                        "user-" + UUID.randomUUID(),
                        email,
                        null,
                        List.of(Requests.ApiKeyParams.of("k", key)),
                        List.of(),
                        List.of(),
                        List.of())))
                .result()
                .path("userIds")
                .get(0)
                .asString();
    }

    private static String uniqueEmail() {
        return "user-" + UUID.randomUUID().toString().substring(0, 8) + "@example.com";
    }

    private static Map<String, Object> emailAuth(String email, TargetKey target) {
        Map<String, Object> p = new LinkedHashMap<>();
        p.put("email", email);
        p.put("targetPublicKey", target.uncompressed());
        return p;
    }

    private String initOtpAuth(String email) {
        return client.submit(
                        "init_otp_auth",
                        "ACTIVITY_TYPE_INIT_OTP_AUTH_V2",
                        Map.of("otpType", "OTP_TYPE_EMAIL", "contact", email, "otpLength", 6, "alphanumeric", false),
                        "initOtpAuthResultV2")
                .result()
                .path("otpId")
                .asString();
    }

    private Activity otpAuth(String otpId, String code, TargetKey target) {
        TargetKey key = target == null ? TargetKey.generate() : target;
        return client.submit(
                "otp_auth",
                "ACTIVITY_TYPE_OTP_AUTH",
                Map.of("otpId", otpId, "otpCode", code, "targetPublicKey", key.compressed()),
                "otpAuthResult");
    }

    private MimeMessage onlyMessage() {
        assertThat(smtp.waitForIncomingEmail(5_000, 1)).as("a message arrived").isTrue();
        MimeMessage[] received = smtp.getReceivedMessages();
        assertThat(received).hasSize(1);
        return received[0];
    }

    private static String part(MimeMessage message, String type) throws Exception {
        Multipart multipart = (Multipart) message.getContent();
        for (int i = 0; i < multipart.getCount(); i++) {
            BodyPart part = multipart.getBodyPart(i);
            if (part.isMimeType(type)) {
                return (String) part.getContent();
            }
        }
        throw new AssertionError("no " + type + " part");
    }

    private static String bundleIn(String text) {
        Matcher m = BUNDLE.matcher(text);
        assertThat(m.find()).as("a magic link with the bundle in: " + text).isTrue();
        return m.group(1);
    }

    private static String codeIn(MimeMessage mail) throws Exception {
        Matcher m = Pattern.compile("sign-in code into [^:]+:\\s+(\\S+)").matcher(part(mail, "text/plain"));
        assertThat(m.find()).isTrue();
        return m.group(1);
    }

    /** The key as the user gets it: the bundle opened with the target key, stamping as a P-256 API key. */
    private KeyhavenClient bundleClient(String bundle, TargetKey target) {
        byte[] key = target.open(TurnkeyHpke.Encrypted.ofCredentialBundle(bundle));
        assertThat(key).hasSize(32);
        return client.withStamper(ApiKeyStamper.fromPrivateKey(ApiKeyStamper.Curve.P256, HEX.formatHex(key)));
    }
}
