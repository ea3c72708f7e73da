package dev.keyhaven.server.recovery;

import dev.keyhaven.server.api.ApiException;
import dev.keyhaven.server.api.Params;
import dev.keyhaven.server.mail.MailAddresses;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;

/**
 * The validated look of a recovery email (seed §4.4): {@code emailCustomization.appName}, {@code logoUrl},
 * {@code magicLinkTemplate} (a URL with one {@code %s}, which the credential bundle replaces),
 * {@code templateVariables} (a JSON object), {@code templateId}, and the sender fields beside it.
 */
record EmailCustomization(
        String appName,
        Optional<String> logoUrl,
        Optional<String> magicLinkTemplate,
        Map<String, String> templateVariables,
        Optional<String> templateId,
        Optional<String> fromAddress,
        String fromName,
        Optional<String> replyTo) {

    static final String DEFAULT_SENDER_NAME = "Notifications";
    private static final ObjectMapper JSON = JsonMapper.builder().build();
    private static final int MAX_TEXT = 200;

    /** Reads the intent's {@code emailCustomization} and sender fields; every problem is a 400 naming the field. */
    static EmailCustomization read(Params intent) {
        Params c = intent.requiredObject("emailCustomization");
        String appName = text(c, "appName", c.requiredString("appName"));
        if (appName.isBlank()) {
            throw ApiException.badField(c.pathOf("appName"), "must not be empty");
        }
        return from(intent, Optional.of(c), appName);
    }

    /**
     * The look of a one-time-password email: {@code appName} given by the caller (init_otp has it beside
     * {@code emailCustomization}, which is optional there), the other fields as for recovery.
     */
    static EmailCustomization forCode(Params intent, String appName) {
        return from(intent, intent.optionalObject("emailCustomization"), appName);
    }

    /**
     * The look of an {@code email_auth} V1/V2 email, whose {@code emailCustomization} and its {@code appName} are
     * optional: without one, {@code defaultAppName}.
     */
    static EmailCustomization optional(Params intent, String defaultAppName) {
        Optional<Params> c = intent.optionalObject("emailCustomization");
        String appName = c.flatMap(o ->
                        o.optionalString("appName").filter(s -> !s.isBlank()).map(a -> text(o, "appName", a)))
                .orElse(defaultAppName);
        return from(intent, c, appName);
    }

    /** Checks an app name given outside {@code emailCustomization}. */
    static String appName(Params p, String field) {
        String appName = text(p, field, p.requiredString(field));
        if (appName.isBlank()) {
            throw ApiException.badField(p.pathOf(field), "must not be empty");
        }
        return appName;
    }

    private static EmailCustomization from(Params intent, Optional<Params> customization, String appName) {
        Optional<String> logoUrl = customization.flatMap(
                c -> c.optionalString("logoUrl").filter(s -> !s.isEmpty()).map(u -> url(c, "logoUrl", u)));
        Optional<String> magicLink = customization.flatMap(c -> c.optionalString("magicLinkTemplate")
                .filter(s -> !s.isEmpty())
                .map(t -> {
                    if (t.indexOf("%s") < 0 || t.indexOf("%s") != t.lastIndexOf("%s")) {
                        throw ApiException.badField(
                                c.pathOf("magicLinkTemplate"),
                                "must contain exactly one %s, where the credential bundle goes");
                    }
                    url(c, "magicLinkTemplate", t.replace("%s", "bundle"));
                    return t;
                }));
        Map<String, String> variables = customization
                .flatMap(c -> c.optionalString("templateVariables")
                        .filter(s -> !s.isEmpty())
                        .map(v -> variables(c, v)))
                .orElse(Map.of());
        Optional<String> templateId =
                customization.flatMap(c -> c.optionalString("templateId").filter(s -> !s.isEmpty()));
        return new EmailCustomization(
                appName,
                logoUrl,
                magicLink,
                variables,
                templateId,
                optionalAddress(intent, "sendFromEmailAddress"),
                intent.optionalString("sendFromEmailSenderName")
                        .filter(s -> !s.isBlank())
                        .map(n -> text(intent, "sendFromEmailSenderName", n))
                        .orElse(DEFAULT_SENDER_NAME),
                optionalAddress(intent, "replyToEmailAddress"));
    }

    private static String text(Params p, String field, String value) {
        if (value.length() > MAX_TEXT || value.chars().anyMatch(ch -> ch < 0x20 || ch == 0x7f)) {
            throw ApiException.badField(p.pathOf(field), "must be at most " + MAX_TEXT + " characters on one line");
        }
        return value;
    }

    private static String url(Params p, String field, String value) {
        try {
            URI uri = new URI(value);
            String scheme = uri.getScheme();
            if (uri.isAbsolute() && uri.getHost() != null && ("https".equals(scheme) || "http".equals(scheme))) {
                return value;
            }
        } catch (URISyntaxException e) {
            // Reported below.
        }
        throw ApiException.badField(p.pathOf(field), "must be an absolute http(s) URL");
    }

    private static Map<String, String> variables(Params p, String json) {
        JsonNode node;
        try {
            node = JSON.readTree(json);
        } catch (JacksonException e) {
            throw ApiException.badField(p.pathOf("templateVariables"), "must be a JSON object (it does not parse)");
        }
        if (node == null || !node.isObject()) {
            throw ApiException.badField(p.pathOf("templateVariables"), "must be a JSON object");
        }
        Map<String, String> out = new LinkedHashMap<>();
        for (Map.Entry<String, JsonNode> e : node.properties()) {
            if (!e.getValue().isValueNode() || e.getValue().isNull()) {
                throw ApiException.badField(
                        p.pathOf("templateVariables"),
                        "value of '" + e.getKey() + "' must be a string, number or boolean");
            }
            out.put(e.getKey(), e.getValue().asString());
        }
        return out;
    }

    private static Optional<String> optionalAddress(Params p, String field) {
        return p.optionalString(field).filter(s -> !s.isEmpty()).map(a -> {
            if (!MailAddresses.isValid(a)) {
                throw ApiException.badField(p.pathOf(field), "is not an email address");
            }
            return a;
        });
    }
}
