package dev.keyhaven.server.app;

import static dev.keyhaven.server.testing.ApiErrors.apiError;
import static org.assertj.core.api.Assertions.assertThat;

import com.icegreen.greenmail.configuration.GreenMailConfiguration;
import com.icegreen.greenmail.util.GreenMail;
import com.icegreen.greenmail.util.ServerSetup;
import dev.keyhaven.client.ApiKeyStamper;
import dev.keyhaven.client.KeyhavenApiException;
import dev.keyhaven.client.KeyhavenClient;
import dev.keyhaven.client.Requests;
import dev.keyhaven.server.api.ErrorCode;
import dev.keyhaven.server.testing.Bundles.TargetKey;
import dev.keyhaven.server.testing.KeyhavenProcess;
import dev.keyhaven.server.testing.KeyhavenProcess.Result;
import dev.keyhaven.server.testing.TestServer;
import jakarta.mail.internet.InternetAddress;
import jakarta.mail.internet.MimeMessage;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The mail options of {@code serve} as operators use them: the real jar delivering a recovery email to an SMTP server
 * that requires a login (GreenMail), the password read from its file and never logged; a wrong password fails the
 * activity; the Maildir fallback is announced in the log; a bad option is a usage error.
 */
class MailCommandLineIT {
    private static final String PASSWORD = "correct horse battery staple";

    @TempDir
    Path directory;

    private GreenMail smtp;

    @BeforeEach
    void startSmtp() {
        smtp = new GreenMail(new ServerSetup(0, "127.0.0.1", ServerSetup.PROTOCOL_SMTP))
                .withConfiguration(GreenMailConfiguration.aConfig().withUser("mailer", PASSWORD));
        smtp.start();
    }

    @AfterEach
    void stopSmtp() {
        smtp.stop();
    }

    private List<String> serveArgs(Path data, String passwordFile) {
        return new ArrayList<>(List.of(
                "--data-dir",
                data.toString(),
                "--port",
                "0",
                "--smtp-host",
                "127.0.0.1",
                "--smtp-port",
                Integer.toString(smtp.getSmtp().getPort()),
                "--smtp-security",
                "none",
                "--smtp-username",
                "mailer",
                "--smtp-password-file",
                passwordFile,
                "--mail-from",
                "ops@acme.example"));
    }

    private static KeyhavenClient rootOf(KeyhavenProcess server, Path data) throws IOException {
        ApiKeyStamper root = ApiKeyStamper.fromPrivateKey(
                ApiKeyStamper.Curve.P256,
                Files.readString(data.resolve("root-api-key.private"), StandardCharsets.US_ASCII)
                        .trim());
        return new KeyhavenClient(server.baseUrl(), root, server.organizationId());
    }

    private static Map<String, Object> recoveryOf(KeyhavenClient root, String email) {
        root.createUsers(List.of(new Requests.UserParams(
                "u",
                email,
                null,
                List.of(Requests.ApiKeyParams.of("k", TestServer.newKey(ApiKeyStamper.Curve.P256))),
                List.of(),
                List.of(),
                List.of())));
        return Map.of(
                "email",
                email,
                "targetPublicKey",
                TargetKey.generate().compressed(),
                "emailCustomization",
                Map.of("appName", "Acme"));
    }

    @Test
    void serveDeliversRecoveryMailThroughAnSmtpServerThatRequiresALogin() throws Exception {
        Path passwordFile = directory.resolve("smtp-password");
        Files.writeString(passwordFile, PASSWORD + "\n");
        Path data = directory.resolve("data");
        try (KeyhavenProcess server = KeyhavenProcess.serve(serveArgs(data, passwordFile.toString()), Map.of())) {
            KeyhavenClient root = rootOf(server, data);
            root.submit(
                    "init_user_email_recovery",
                    "ACTIVITY_TYPE_INIT_USER_EMAIL_RECOVERY_V2",
                    recoveryOf(root, "alice@example.com"),
                    "initUserEmailRecoveryResult");
            assertThat(smtp.waitForIncomingEmail(5_000, 1)).isTrue();
            MimeMessage message = smtp.getReceivedMessages()[0];
            InternetAddress from = (InternetAddress) message.getFrom()[0];
            assertThat(from.getAddress()).isEqualTo("ops@acme.example");
            assertThat(message.getAllRecipients()[0].toString()).isEqualTo("alice@example.com");
            assertThat(server.stderr())
                    .contains("SMTP 127.0.0.1:" + smtp.getSmtp().getPort())
                    .contains("as mailer")
                    .doesNotContain(PASSWORD);
        }
    }

    @Test
    void aWrongPasswordFailsTheActivity() throws Exception {
        Path passwordFile = directory.resolve("wrong-password");
        Files.writeString(passwordFile, "wrong");
        Path data = directory.resolve("data");
        try (KeyhavenProcess server = KeyhavenProcess.serve(serveArgs(data, passwordFile.toString()), Map.of())) {
            KeyhavenClient root = rootOf(server, data);
            Map<String, Object> request = recoveryOf(root, "bob@example.com");
            KeyhavenApiException failed = apiError(() -> root.submit(
                    "init_user_email_recovery",
                    "ACTIVITY_TYPE_INIT_USER_EMAIL_RECOVERY_V2",
                    request,
                    "initUserEmailRecoveryResult"));
            assertThat(failed.httpStatus()).isEqualTo(503);
            assertThat(smtp.getReceivedMessages()).isEmpty();
        }
    }

    @Test
    void starttlsIsRequiredNotOpportunistic() throws Exception {
        Path passwordFile = directory.resolve("smtp-password");
        Files.writeString(passwordFile, PASSWORD);
        Path data = directory.resolve("data");
        List<String> args = serveArgs(data, passwordFile.toString());
        args.set(args.indexOf("none"), "starttls");
        // This SMTP server offers no STARTTLS: nothing is sent in the clear, the activity fails.
        try (KeyhavenProcess server = KeyhavenProcess.serve(args, Map.of())) {
            KeyhavenClient root = rootOf(server, data);
            Map<String, Object> request = recoveryOf(root, "carol@example.com");
            KeyhavenApiException failed = apiError(
                    ErrorCode.UNAVAILABLE,
                    null,
                    () -> root.submit(
                            "init_user_email_recovery",
                            "ACTIVITY_TYPE_INIT_USER_EMAIL_RECOVERY_V2",
                            request,
                            "initUserEmailRecoveryResult"));
            assertThat(failed.serverMessage())
                    .startsWith("the recovery email could not be sent: ")
                    .containsIgnoringCase("STARTTLS");
            assertThat(smtp.getReceivedMessages()).isEmpty();
        }
    }

    @Test
    void withoutSmtpTheLogNamesTheMaildir() throws Exception {
        Path data = directory.resolve("data");
        try (KeyhavenProcess server =
                KeyhavenProcess.serve(List.of("--data-dir", data.toString(), "--port", "0"), Map.of())) {
            assertThat(server.stderr()).contains("the Maildir " + data.resolve("maildir"));
        }
    }

    @Test
    void badMailOptionsAreUsageErrors() {
        Path data = directory.resolve("data");
        Result badFrom = KeyhavenProcess.run(
                List.of("serve", "--data-dir", data.toString(), "--port", "0", "--mail-from", "not an address"),
                Map.of());
        assertThat(badFrom.exitCode()).isEqualTo(2);
        assertThat(badFrom.stderr()).contains("--mail-from");
        Result loneUser = KeyhavenProcess.run(
                List.of(
                        "serve",
                        "--data-dir",
                        data.toString(),
                        "--port",
                        "0",
                        "--smtp-host",
                        "127.0.0.1",
                        "--smtp-username",
                        "mailer"),
                Map.of());
        assertThat(loneUser.exitCode()).isEqualTo(2);
        assertThat(loneUser.stderr()).contains("--smtp-password-file");
        Result badSecurity = KeyhavenProcess.run(
                List.of("serve", "--data-dir", data.toString(), "--port", "0", "--smtp-security", "ssl3"), Map.of());
        assertThat(badSecurity.exitCode()).isEqualTo(2);
    }
}
