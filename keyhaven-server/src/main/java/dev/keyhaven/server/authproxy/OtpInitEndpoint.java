package dev.keyhaven.server.authproxy;

import dev.keyhaven.server.api.ApiException;
import dev.keyhaven.server.api.Ids;
import dev.keyhaven.server.api.Params;
import dev.keyhaven.server.otp.OtpService;
import dev.keyhaven.server.otp.OtpType;
import dev.keyhaven.server.recovery.CodeMail;
import dev.keyhaven.server.tx.Transactor;
import java.time.Clock;
import java.util.Map;
import java.util.Optional;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code /v1/otp_init} and {@code /v1/otp_init_v2} ({@code {otpType, contact, emailCustomization?{templateId?}}} →
 * {@code {otpId, otpEncryptionTargetBundle}}): sends a code to the contact through a channel the configuration
 * enables, with the configuration's length, alphabet, lifetime and app name. The answer is the same whether or not
 * an account has the contact.
 */
final class OtpInitEndpoint implements AuthProxyEndpoint {
    private final OtpService otps;
    private final CodeMail mail;
    private final Transactor transactor;
    private final Clock clock;
    private final Ids ids;

    OtpInitEndpoint(OtpService otps, CodeMail mail, Transactor transactor, Clock clock, Ids ids) {
        this.otps = otps;
        this.mail = mail;
        this.transactor = transactor;
        this.clock = clock;
        this.ids = ids;
    }

    @Override
    public Object answer(AuthProxyRequest request) {
        AuthProxyConfig config = request.config();
        Params body = request.body();
        OtpType type = body.requiredEnum("otpType", OtpType.class);
        if (type == OtpType.OTP_TYPE_EMAIL ? !config.emailEnabled() : !config.smsEnabled()) {
            throw ApiException.badField(body.pathOf("otpType"), "is not enabled in this auth proxy config");
        }
        String contact = OtpService.contact(type, body.requiredString("contact"), body.pathOf("contact"));
        Optional<CodeMail.Look> look = Optional.empty();
        if (type == OtpType.OTP_TYPE_EMAIL) {
            Optional<String> requested = body.optionalObject("emailCustomization")
                    .flatMap(c -> c.optionalString("templateId"))
                    .filter(s -> !s.isBlank());
            look = Optional.of(
                    mail.read(Params.of(emailIntent(requested.or(config::emailTemplateId)), ""), config.appName()));
        }
        OtpService.CodeRequest code = new OtpService.CodeRequest(
                type,
                contact,
                config.appName(),
                config.otpLength(),
                config.alphanumeric(),
                config.otpExpirationSeconds(),
                look,
                Optional.empty());
        OtpService.Initiated initiated = transactor.write(tx -> otps.init(
                tx, config.organizationId(), code, Optional.of(request.clientAddress()), clock.instant(), ids));
        return Map.of("otpId", initiated.otpId(), "otpEncryptionTargetBundle", initiated.otpEncryptionTargetBundle());
    }

    /** Only the template id travels from a proxy request into the email; the rest comes from the config. */
    private static tools.jackson.databind.JsonNode emailIntent(Optional<String> templateId) {
        ObjectNode intent = JsonMapper.builder().build().createObjectNode();
        templateId.ifPresent(id -> intent.putObject("emailCustomization").put("templateId", id));
        return intent;
    }
}
