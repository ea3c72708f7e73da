package dev.keyhaven.server.recovery;

import static dev.keyhaven.server.testing.ApiErrors.apiError;
import static org.assertj.core.api.Assertions.assertThat;

import com.icegreen.greenmail.util.GreenMail;
import com.icegreen.greenmail.util.GreenMailUtil;
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
import dev.keyhaven.server.testing.MutableClock;
import dev.keyhaven.server.testing.OnBothStores;
import dev.keyhaven.server.testing.SoftwareAuthenticator;
import dev.keyhaven.server.testing.TestServer;
import jakarta.mail.Address;
import jakarta.mail.BodyPart;
import jakarta.mail.Multipart;
import jakarta.mail.internet.InternetAddress;
import jakarta.mail.internet.MimeMessage;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * init_user_email_recovery (V2) and recover_user over real HTTP and real SMTP (GreenMail in this JVM): the email's
 * headers and content, the credential bundle opening with the target key, recover_user working once and only once,
 * expiry, templates, and the error paths (nothing is mailed for a refused request; a failed send fails the activity).
 */
class RecoveryIT extends OnBothStores {
    private static final String ORIGIN = "https://app.example.com";
    private static final String FROM = "keyhaven@test.example";
    private static final Pattern BUNDLE = Pattern.compile("bundle=([1-9A-HJ-NP-Za-km-z]+)");

    private final MutableClock clock = MutableClock.ticking();
    private GreenMail smtp;
    private Path templates;
    private KeyhavenClient client;

    @Override
    protected Clock clock() {
        return clock;
    }

    @Override
    protected KeyhavenConfig configure(KeyhavenConfig defaults) {
        smtp = new GreenMail(new ServerSetup(0, "127.0.0.1", ServerSetup.PROTOCOL_SMTP));
        smtp.start();
        try {
            // In the server's data directory, which the server deletes when it stops.
            templates = Files.createDirectories(defaults.dataDirectory().resolve("recovery-templates"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return defaults.withWebAuthnOrigins(List.of(ORIGIN))
                .withMail(new MailSettings(
                        Optional.of(new MailSettings.Smtp(
                                "127.0.0.1",
                                smtp.getSmtp().getPort(),
                                MailSettings.Security.NONE,
                                Optional.empty(),
                                Optional.empty(),
                                Duration.ofSeconds(10))),
                        FROM,
                        Optional.of(templates)));
    }

    @BeforeEach
    void freshMailboxAndClient() throws Exception {
        smtp.purgeEmailFromAllMailboxes();
        client = root.withClock(clock);
        try (var files = Files.list(templates)) {
            for (Path f : files.toList()) {
                Files.delete(f);
            }
        }
    }

    @AfterAll
    void stopSmtp() {
        if (smtp != null) {
            smtp.stop();
        }
    }

    /** A user with an email and one API key, as recovery finds them. */
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

    private Activity init(Map<String, Object> parameters) {
        return client.submit(
                "init_user_email_recovery",
                "ACTIVITY_TYPE_INIT_USER_EMAIL_RECOVERY_V2",
                parameters,
                "initUserEmailRecoveryResult");
    }

    private static Map<String, Object> request(String email, TargetKey target, Map<String, Object> customization) {
        Map<String, Object> p = new LinkedHashMap<>();
        p.put("email", email);
        p.put("targetPublicKey", target.uncompressed());
        p.put("emailCustomization", customization);
        return p;
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

    /** The recovery credential as the user gets it: decrypts the emailed bundle with the target key. */
    private KeyhavenClient recoveryClient(String bundle, TargetKey target) {
        byte[] key = target.open(TurnkeyHpke.Encrypted.ofCredentialBundle(bundle));
        assertThat(key).hasSize(32);
        return client.withStamper(ApiKeyStamper.fromPrivateKey(
                ApiKeyStamper.Curve.P256, HexFormat.of().formatHex(key)));
    }

    private static Activity recoverWithApiKey(KeyhavenClient recovery, String userId, ApiKeyStamper newKey) {
        return recovery.submit(
                "recover_user",
                "ACTIVITY_TYPE_RECOVER_USER",
                Map.of("userId", userId, "apiKey", Requests.ApiKeyParams.of("recovered", newKey)),
                "recoverUserResult");
    }

    @Test
    void theEmailCarriesEveryCustomizationAndItsBundleRecoversTheUserOnce() throws Exception {
        String email = uniqueEmail();
        String userId = newUser(email);
        TargetKey target = TargetKey.generate();
        Map<String, Object> customization = Map.of(
                "appName",
                "Acme Wallet",
                "logoUrl",
                "https://acme.example/logo.png",
                "magicLinkTemplate",
                "https://acme.example/recover?bundle=%s",
                "templateVariables",
                "{\"support\":\"help@acme.example\"}");
        Map<String, Object> parameters = request(email.toUpperCase(Locale.ROOT), target, customization);
        parameters.put("sendFromEmailAddress", "security@acme.example");
        parameters.put("sendFromEmailSenderName", "Acme Security");
        parameters.put("replyToEmailAddress", "help@acme.example");
        Activity started = init(parameters);
        assertThat(started.status()).isEqualTo("ACTIVITY_STATUS_COMPLETED");
        assertThat(started.result().path("userId").asString()).isEqualTo(userId);
        // The recovery credential is no API key the user manages: not listed, not counted.
        assertThat(client.getApiKeys(userId))
                .extracting(k -> k.path("apiKeyName").asString())
                .containsExactly("k");

        MimeMessage message = onlyMessage();
        InternetAddress from = (InternetAddress) message.getFrom()[0];
        assertThat(from.getAddress()).isEqualTo("security@acme.example");
        assertThat(from.getPersonal()).isEqualTo("Acme Security");
        assertThat(message.getAllRecipients()).extracting(Address::toString).containsExactly(email);
        assertThat(message.getReplyTo()).extracting(Address::toString).containsExactly("help@acme.example");
        assertThat(message.getSubject()).isEqualTo("Acme Wallet: recover your account");
        String html = part(message, "text/html");
        String text = part(message, "text/plain");
        assertThat(html)
                .contains("<img src=\"https://acme.example/logo.png\"")
                .contains("Acme Wallet")
                .contains("expires in 15 minutes");
        String bundle = bundleIn(html);
        assertThat(text)
                .contains("https://acme.example/recover?bundle=" + bundle)
                .contains(bundle);

        KeyhavenClient recovery = recoveryClient(bundle, target);
        // The recovery credential stamps recover_user and nothing else.
        assertThat(apiError(ErrorCode.REQUEST_NOT_AUTHORIZED, null, recovery::whoami)
                        .serverMessage())
                .isEqualTo("a recovery credential may only stamp recover_user");
        assertThat(apiError(() -> recovery.createWallet("stolen", List.of())).httpStatus())
                .isEqualTo(403);

        ApiKeyStamper newKey = TestServer.newKey(ApiKeyStamper.Curve.P256);
        Activity recovered = recoverWithApiKey(recovery, userId, newKey);
        assertThat(recovered.status()).isEqualTo("ACTIVITY_STATUS_COMPLETED");
        assertThat(recovered.result().path("authenticatorId").isArray()).isTrue();
        assertThat(recovered.result().path("apiKeyIds").size()).isEqualTo(1);
        assertThat(client.withStamper(newKey).whoami().userId()).isEqualTo(userId);

        // Used up: the same credential no longer authenticates.
        KeyhavenApiException again =
                apiError(() -> recoverWithApiKey(recovery, userId, TestServer.newKey(ApiKeyStamper.Curve.P256)));
        assertThat(again.httpStatus()).isEqualTo(401);
    }

    @Test
    void recoverUserRegistersAPasskeyWithTheBuiltInEmailAndDefaultSender() throws Exception {
        String email = uniqueEmail();
        String userId = newUser(email);
        TargetKey target = TargetKey.generate();
        init(request(email, target, Map.of("appName", "Plain App")));
        MimeMessage message = onlyMessage();
        InternetAddress from = (InternetAddress) message.getFrom()[0];
        assertThat(from.getAddress()).isEqualTo(FROM);
        assertThat(from.getPersonal()).isEqualTo("Notifications");
        assertThat(message.getHeader("Reply-To")).isNull();
        String text = part(message, "text/plain");
        assertThat(part(message, "text/html")).doesNotContain("<img").doesNotContain("Recover my account");
        // Without a magic link, the code itself is in the text: the longest base58 run.
        String bundle = Pattern.compile("[1-9A-HJ-NP-Za-km-z]{100,}")
                .matcher(text)
                .results()
                .map(java.util.regex.MatchResult::group)
                .findFirst()
                .orElseThrow();

        SoftwareAuthenticator passkey = SoftwareAuthenticator.create(ORIGIN, "example.com");
        Activity recovered = recoveryClient(bundle, target)
                .submit(
                        "recover_user",
                        "ACTIVITY_TYPE_RECOVER_USER",
                        Map.of(
                                "userId",
                                userId,
                                "authenticator",
                                passkey.registration("recovered phone", SoftwareAuthenticator.Format.NONE)),
                        "recoverUserResult");
        assertThat(recovered.status()).isEqualTo("ACTIVITY_STATUS_COMPLETED");
        String authenticatorId =
                recovered.result().path("authenticatorId").get(0).asString();
        KeyhavenClient withPasskey = client.withStamper(passkey);
        assertThat(withPasskey.whoami().userId()).isEqualTo(userId);
        assertThat(withPasskey
                        .getAuthenticator(authenticatorId)
                        .path("authenticatorName")
                        .asString())
                .isEqualTo("recovered phone");
    }

    @Test
    void theCredentialExpiresAndANewInitReplacesTheOldOne() throws Exception {
        String email = uniqueEmail();
        String userId = newUser(email);
        TargetKey target = TargetKey.generate();
        Map<String, Object> shortLived =
                request(email, target, Map.of("appName", "A", "magicLinkTemplate", "https://a.example/r?bundle=%s"));
        shortLived.put("expirationSeconds", "60");
        init(shortLived);
        String first = bundleIn(part(onlyMessage(), "text/html"));
        assertThat(part(smtp.getReceivedMessages()[0], "text/plain")).contains("expires in 1 minutes");
        clock.advance(Duration.ofSeconds(61));
        KeyhavenApiException expired = apiError(
                ErrorCode.API_KEY_EXPIRED,
                null,
                () -> recoverWithApiKey(
                        recoveryClient(first, target), userId, TestServer.newKey(ApiKeyStamper.Curve.P256)));
        assertThat(expired.serverMessage()).isEqualTo("expired api key");

        // Default validity: 15 minutes. A second init replaces the first credential.
        smtp.purgeEmailFromAllMailboxes();
        init(request(email, target, Map.of("appName", "A", "magicLinkTemplate", "https://a.example/r?bundle=%s")));
        String second = bundleIn(part(onlyMessage(), "text/html"));
        smtp.purgeEmailFromAllMailboxes();
        init(request(email, target, Map.of("appName", "A", "magicLinkTemplate", "https://a.example/r?bundle=%s")));
        String third = bundleIn(part(onlyMessage(), "text/html"));
        assertThat(apiError(() -> recoverWithApiKey(
                                recoveryClient(second, target), userId, TestServer.newKey(ApiKeyStamper.Curve.P256)))
                        .httpStatus())
                .isEqualTo(401);
        clock.advance(Duration.ofMinutes(15).plusSeconds(1));
        assertThat(apiError(
                                ErrorCode.API_KEY_EXPIRED,
                                null,
                                () -> recoverWithApiKey(
                                        recoveryClient(third, target),
                                        userId,
                                        TestServer.newKey(ApiKeyStamper.Curve.P256)))
                        .serverMessage())
                .isEqualTo("expired api key");
    }

    @Test
    void operatorTemplatesTheMostRecentByDefaultOrByIdWithVariables() throws Exception {
        String email = uniqueEmail();
        newUser(email);
        Files.writeString(
                templates.resolve("classic.html"),
                "<p>Classic {{appName}} {{support}}</p>" + "<a href=\"{{magicLink}}\">go</a>");
        Files.setLastModifiedTime(
                templates.resolve("classic.html"), FileTime.from(Instant.now().minusSeconds(600)));
        Files.writeString(
                templates.resolve("fresh.html"),
                "<p>Fresh {{appName}} for {{email}}: {{credentialBundle}}" + " {{support}}</p>");
        Files.writeString(templates.resolve("fresh.txt"), "Fresh text {{support}} {{credentialBundle}}");
        TargetKey target = TargetKey.generate();
        Map<String, Object> base = Map.of(
                "appName",
                "T&Co",
                "templateVariables",
                "{\"support\":\"<b>help</b>\",\"n\":3}",
                "magicLinkTemplate",
                "https://t.example/r?bundle=%s");

        init(request(email, target, base));
        MimeMessage fresh = onlyMessage();
        assertThat(part(fresh, "text/html"))
                .startsWith("<p>Fresh T&amp;Co for " + email)
                .contains("&lt;b&gt;help&lt;/b&gt;");
        assertThat(part(fresh, "text/plain")).startsWith("Fresh text <b>help</b> ");

        smtp.purgeEmailFromAllMailboxes();
        Map<String, Object> byId = new LinkedHashMap<>(base);
        byId.put("templateId", "classic");
        init(request(email, target, byId));
        String html = part(onlyMessage(), "text/html");
        assertThat(html).startsWith("<p>Classic T&amp;Co &lt;b&gt;help&lt;/b&gt;</p>");
        assertThat(recoveryClient(bundleIn(html), target)).isNotNull();

        smtp.purgeEmailFromAllMailboxes();
        byId.put("templateId", "../fresh");
        String noTemplate = "bad request body: parameters.emailCustomization.templateId names no email template of "
                + "this server";
        assertThat(apiError(
                                ErrorCode.BAD_REQUEST,
                                "parameters.emailCustomization.templateId",
                                () -> init(request(email, target, byId)))
                        .serverMessage())
                .isEqualTo(noTemplate);
        byId.put("templateId", "missing");
        assertThat(apiError(
                                ErrorCode.BAD_REQUEST,
                                "parameters.emailCustomization.templateId",
                                () -> init(request(email, target, byId)))
                        .serverMessage())
                .isEqualTo(noTemplate);
        assertThat(smtp.getReceivedMessages()).isEmpty();
    }

    @Test
    void invalidRequestsAreRefusedAndNothingIsMailed() {
        String email = uniqueEmail();
        newUser(email);
        TargetKey target = TargetKey.generate();
        Map<String, String> badCustomizations = Map.of(
                "magicLinkTemplate", "https://a.example/recover",
                "templateVariables", "{not json",
                "logoUrl", "javascript:alert(1)");
        badCustomizations.forEach((field, value) -> apiError(
                ErrorCode.BAD_REQUEST,
                "parameters.emailCustomization." + field,
                () -> init(request(email, target, Map.of("appName", "A", field, value)))));
        assertThat(apiError(
                                ErrorCode.BAD_REQUEST,
                                "parameters.emailCustomization.templateVariables",
                                () -> init(
                                        request(email, target, Map.of("appName", "A", "templateVariables", "[1,2]"))))
                        .serverMessage())
                .isEqualTo(
                        "bad request body: parameters.emailCustomization.templateVariables must " + "be a JSON object");
        apiError(
                ErrorCode.BAD_REQUEST,
                "parameters.emailCustomization.appName",
                () -> init(request(email, target, Map.of())));
        for (String field : List.of("sendFromEmailAddress", "replyToEmailAddress")) {
            for (String bad : List.of("not-an-address", "Eve <eve@example.com>", "a@b.example\r\nBcc: x@y.example")) {
                Map<String, Object> p = request(email, target, Map.of("appName", "A"));
                p.put(field, bad);
                apiError(ErrorCode.BAD_REQUEST, "parameters." + field, () -> init(p));
            }
        }
        Map<String, Object> badName = request(email, target, Map.of("appName", "A"));
        badName.put("sendFromEmailSenderName", "Eve\r\nBcc: x@y.example");
        apiError(ErrorCode.BAD_REQUEST, "parameters.sendFromEmailSenderName", () -> init(badName));
        for (String seconds : List.of("0", "86401", "ten")) {
            Map<String, Object> p = request(email, target, Map.of("appName", "A"));
            p.put("expirationSeconds", seconds);
            apiError(ErrorCode.BAD_REQUEST, "parameters.expirationSeconds", () -> init(p));
        }
        Map<String, Object> badTarget = request(email, target, Map.of("appName", "A"));
        badTarget.put("targetPublicKey", "04abcd");
        apiError(ErrorCode.BAD_REQUEST, "parameters.targetPublicKey", () -> init(badTarget));
        apiError(
                ErrorCode.BAD_REQUEST,
                "parameters.email",
                () -> init(request("nobody", target, Map.of("appName", "A"))));
        KeyhavenApiException unknown = apiError(() -> init(request(uniqueEmail(), target, Map.of("appName", "A"))));
        assertThat(unknown.httpStatus()).isEqualTo(404);
        assertThat(smtp.getReceivedMessages()).isEmpty();
    }

    @Test
    void recoverUserNeedsTheRecoveryCredentialOfThatUser() throws Exception {
        String email = uniqueEmail();
        String userId = newUser(email);
        String otherId = newUser(uniqueEmail());
        // The root user's own key cannot recover anyone, itself included.
        KeyhavenApiException byRoot = apiError(
                ErrorCode.REQUEST_NOT_AUTHORIZED,
                null,
                () -> recoverWithApiKey(client, server.rootUserId(), TestServer.newKey(ApiKeyStamper.Curve.P256)));
        assertThat(byRoot.serverMessage())
                .isEqualTo("recover_user must be stamped with the recovery credential that "
                        + "init_user_email_recovery sent to user " + server.rootUserId());
        TargetKey target = TargetKey.generate();
        init(request(email, target, Map.of("appName", "A", "magicLinkTemplate", "https://a.example/r?bundle=%s")));
        KeyhavenClient recovery = recoveryClient(bundleIn(part(onlyMessage(), "text/html")), target);
        // Another user's recovery: refused (as a policy failure) and the credential stays usable.
        Activity other = recoverWithApiKey(recovery, otherId, TestServer.newKey(ApiKeyStamper.Curve.P256));
        assertThat(other.status()).isEqualTo("ACTIVITY_STATUS_FAILED");
        apiError(
                ErrorCode.BAD_REQUEST,
                "parameters.authenticator",
                () -> recovery.submit(
                        "recover_user", "ACTIVITY_TYPE_RECOVER_USER", Map.of("userId", userId), "recoverUserResult"));
        assertThat(recoverWithApiKey(recovery, userId, TestServer.newKey(ApiKeyStamper.Curve.P256))
                        .status())
                .isEqualTo("ACTIVITY_STATUS_COMPLETED");
        // The target key could not have opened a bundle meant for another one.
        TargetKey stranger = TargetKey.generate();
        org.assertj.core.api.Assertions.assertThatThrownBy(
                        () -> recoveryClient(bundleIn(GreenMailUtil.getBody(smtp.getReceivedMessages()[0])), stranger))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aFailedSendFailsTheActivityAndLeavesNoCredential() {
        int closedPort;
        try (var socket = new java.net.ServerSocket(0)) {
            closedPort = socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        try (TestServer broken = TestServer.start(
                store,
                c -> c.withMail(new MailSettings(
                        Optional.of(new MailSettings.Smtp(
                                "127.0.0.1",
                                closedPort,
                                MailSettings.Security.NONE,
                                Optional.empty(),
                                Optional.empty(),
                                Duration.ofSeconds(5))),
                        FROM,
                        Optional.empty())),
                Clock.systemUTC())) {
            KeyhavenClient brokenRoot = broken.rootClient();
            String email = uniqueEmail();
            brokenRoot.createUsers(List.of(new Requests.UserParams(
                    "u",
                    email,
                    null,
                    List.of(Requests.ApiKeyParams.of("k", TestServer.newKey(ApiKeyStamper.Curve.P256))),
                    List.of(),
                    List.of(),
                    List.of())));
            KeyhavenApiException failed = apiError(
                    ErrorCode.UNAVAILABLE,
                    null,
                    () -> brokenRoot.submit(
                            "init_user_email_recovery",
                            "ACTIVITY_TYPE_INIT_USER_EMAIL_RECOVERY_V2",
                            request(email, TargetKey.generate(), Map.of("appName", "A")),
                            "initUserEmailRecoveryResult"));
            assertThat(failed.serverMessage()).startsWith("the recovery email could not be sent: ");
            List<JsonNode> activities = brokenRoot.listActivities(
                    List.of(), List.of("ACTIVITY_TYPE_INIT_USER_EMAIL_RECOVERY_V2"), null, null, null);
            assertThat(activities)
                    .extracting(a -> a.path("status").asString())
                    .containsExactly("ACTIVITY_STATUS_FAILED");
        }
    }

    @Test
    void withoutSmtpTheMessageGoesToTheMaildir() throws Exception {
        Path[] dataDirectory = new Path[1];
        try (TestServer local = TestServer.start(
                store,
                c -> {
                    dataDirectory[0] = c.dataDirectory();
                    return c;
                },
                Clock.systemUTC())) {
            KeyhavenClient localRoot = local.rootClient();
            String email = uniqueEmail();
            localRoot.createUsers(List.of(new Requests.UserParams(
                    "u",
                    email,
                    null,
                    List.of(Requests.ApiKeyParams.of("k", TestServer.newKey(ApiKeyStamper.Curve.P256))),
                    List.of(),
                    List.of(),
                    List.of())));
            TargetKey target = TargetKey.generate();
            localRoot.submit(
                    "init_user_email_recovery",
                    "ACTIVITY_TYPE_INIT_USER_EMAIL_RECOVERY_V2",
                    request(
                            email,
                            target,
                            Map.of("appName", "Local", "magicLinkTemplate", "https://l.example/r?bundle=%s")),
                    "initUserEmailRecoveryResult");
            Path maildirNew = dataDirectory[0].resolve("maildir").resolve("new");
            List<Path> delivered;
            try (var files = Files.list(maildirNew)) {
                delivered = files.toList();
            }
            assertThat(delivered).hasSize(1);
            String raw = Files.readString(delivered.get(0), StandardCharsets.UTF_8);
            assertThat(raw).contains("To: " + email).contains("Subject: Local: recover your account");
            MimeMessage parsed = new MimeMessage(null, Files.newInputStream(delivered.get(0)));
            assertThat(recoveryClient(bundleIn(part(parsed, "text/html")), target))
                    .isNotNull();
        }
    }

    // ---- V1: emailCustomization and its appName optional ---------------------------------------------------

    private Activity initV1(Map<String, Object> parameters) {
        return client.submit(
                "init_user_email_recovery",
                "ACTIVITY_TYPE_INIT_USER_EMAIL_RECOVERY",
                parameters,
                "initUserEmailRecoveryResult");
    }

    @Test
    void v1WithoutAnAppNameMailsUnderTheDefaultOneAndItsBundleRecoversTheUser() throws Exception {
        String email = uniqueEmail();
        String userId = newUser(email);
        TargetKey target = TargetKey.generate();
        Activity init =
                initV1(request(email, target, Map.of("magicLinkTemplate", "https://acme.example/recover?bundle=%s")));
        assertThat(init.raw().path("intent").propertyNames()).containsExactly("initUserEmailRecoveryIntent");
        assertThat(init.result().path("userId").asString()).isEqualTo(userId);
        MimeMessage message = onlyMessage();
        assertThat(message.getSubject()).isEqualTo("Keyhaven: recover your account");
        ApiKeyStamper newKey = TestServer.newKey(ApiKeyStamper.Curve.P256);
        recoverWithApiKey(recoveryClient(bundleIn(part(message, "text/html")), target), userId, newKey);
        assertThat(client.withStamper(newKey).whoami().userId()).isEqualTo(userId);
    }

    @Test
    void v1WithoutEmailCustomizationAtAllIsAcceptedButItsFieldsAreStillChecked() throws Exception {
        String email = uniqueEmail();
        newUser(email);
        Map<String, Object> bare = new LinkedHashMap<>();
        bare.put("email", email);
        bare.put("targetPublicKey", TargetKey.generate().uncompressed());
        assertThat(initV1(bare).status()).isEqualTo("ACTIVITY_STATUS_COMPLETED");
        assertThat(onlyMessage().getSubject()).isEqualTo("Keyhaven: recover your account");
        smtp.purgeEmailFromAllMailboxes();
        apiError(
                ErrorCode.BAD_REQUEST,
                "parameters.emailCustomization.logoUrl",
                () -> initV1(request(email, TargetKey.generate(), Map.of("logoUrl", "not a url"))));
        apiError(
                ErrorCode.BAD_REQUEST,
                "parameters.email",
                () -> initV1(request("not-an-email", TargetKey.generate(), Map.of())));
        // V2 still requires its emailCustomization.
        Map<String, Object> bareV2 = new LinkedHashMap<>(bare);
        apiError(ErrorCode.BAD_REQUEST, "parameters.emailCustomization", () -> init(bareV2));
        assertThat(smtp.getReceivedMessages()).isEmpty();
    }
}
