package dev.keyhaven.server.recovery;

import dev.keyhaven.server.mail.MailMessage;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Renders a recovery email. Operator templates use {@code {{name}}} placeholders, filled with the request's
 * {@code templateVariables} and these, which take precedence: {@code appName}, {@code logoUrl}, {@code magicLink},
 * {@code credentialBundle}, {@code email}, {@code expiresInMinutes}. Values are HTML-escaped in the HTML part; a
 * placeholder with no value renders empty.
 */
final class RecoveryEmail {
    private static final Pattern PLACEHOLDER = Pattern.compile("\\{\\{\\s*([A-Za-z0-9_.-]+)\\s*}}");

    private RecoveryEmail() {}

    static MailMessage render(
            EmailCustomization c,
            Optional<EmailTemplates.Template> template,
            String defaultFrom,
            String to,
            String bundle,
            long expirationSeconds) {
        String magicLink =
                c.magicLinkTemplate().map(t -> t.replace("%s", bundle)).orElse("");
        return render(
                c,
                template,
                defaultFrom,
                to,
                Map.of("magicLink", magicLink, "credentialBundle", bundle),
                expirationSeconds,
                c.appName() + ": recover your account",
                BUILT_IN_HTML,
                BUILT_IN_TEXT);
    }

    /**
     * An {@code email_auth} sign-in email: the same templates and placeholders as recovery ({@code magicLink} is the
     * magic-link template filled with the credential bundle), with the subject Turnkey uses, "Sign in to appName".
     */
    static MailMessage renderSignIn(
            EmailCustomization c,
            Optional<EmailTemplates.Template> template,
            String defaultFrom,
            String to,
            String bundle,
            long expirationSeconds) {
        String magicLink =
                c.magicLinkTemplate().map(t -> t.replace("%s", bundle)).orElse("");
        return render(
                c,
                template,
                defaultFrom,
                to,
                Map.of("magicLink", magicLink, "credentialBundle", bundle),
                expirationSeconds,
                "Sign in to " + c.appName(),
                SIGN_IN_HTML,
                SIGN_IN_TEXT);
    }

    /**
     * A one-time-password email: the same templates and placeholders, with {@code otpCode} (and {@code magicLink},
     * the magic-link template filled with the code) instead of the credential bundle.
     */
    static MailMessage renderCode(
            EmailCustomization c,
            Optional<EmailTemplates.Template> template,
            String defaultFrom,
            String to,
            String code,
            long expirationSeconds) {
        String magicLink = c.magicLinkTemplate().map(t -> t.replace("%s", code)).orElse("");
        return render(
                c,
                template,
                defaultFrom,
                to,
                Map.of("magicLink", magicLink, "otpCode", code),
                expirationSeconds,
                c.appName() + ": your sign-in code",
                CODE_HTML,
                CODE_TEXT);
    }

    private static MailMessage render(
            EmailCustomization c,
            Optional<EmailTemplates.Template> template,
            String defaultFrom,
            String to,
            Map<String, String> secrets,
            long expirationSeconds,
            String subject,
            String builtInHtml,
            String builtInText) {
        Map<String, String> values = new LinkedHashMap<>(c.templateVariables());
        values.put("appName", c.appName());
        values.put("logoUrl", c.logoUrl().orElse(""));
        values.put("email", to);
        values.put("expiresInMinutes", Long.toString(Math.max(1, expirationSeconds / 60)));
        values.putAll(secrets);
        String magicLink = values.get("magicLink");
        String html = fill(template.map(EmailTemplates.Template::html).orElse(builtInHtml), values, true);
        String text = fill(template.flatMap(EmailTemplates.Template::text).orElse(builtInText), values, false);
        if (!c.logoUrl().isPresent()) {
            html = html.replaceAll("(?s)<!--logo-->.*?<!--/logo-->", "");
        }
        if (magicLink.isEmpty()) {
            html = html.replaceAll("(?s)<!--magic-->.*?<!--/magic-->", "");
            text = text.replaceAll("(?s)\\[magic].*?\\[/magic]\\n?", "");
        }
        text = text.replace("[magic]", "").replace("[/magic]", "");
        return new MailMessage(c.fromAddress().orElse(defaultFrom), c.fromName(), to, c.replyTo(), subject, text, html);
    }

    private static String fill(String template, Map<String, String> values, boolean html) {
        Matcher m = PLACEHOLDER.matcher(template);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            String value = values.getOrDefault(m.group(1), "");
            m.appendReplacement(out, Matcher.quoteReplacement(html ? escape(value) : value));
        }
        m.appendTail(out);
        return out.toString();
    }

    static String escape(String s) {
        StringBuilder out = new StringBuilder(s.length());
        for (char ch : s.toCharArray()) {
            switch (ch) {
                case '&' -> out.append("&amp;");
                case '<' -> out.append("&lt;");
                case '>' -> out.append("&gt;");
                case '"' -> out.append("&quot;");
                case '\'' -> out.append("&#39;");
                default -> out.append(ch);
            }
        }
        return out.toString();
    }

    private static final String BUILT_IN_HTML = """
            <!doctype html>
            <html><body style="font-family: sans-serif; color: #222; max-width: 560px; margin: 24px auto;">
            <!--logo--><p><img src="{{logoUrl}}" alt="{{appName}}" style="max-width: 340px; max-height: 124px;"></p><!--/logo-->
            <h2>Recover your {{appName}} account</h2>
            <p>Someone asked to recover the {{appName}} account of {{email}}. If it was you, continue below; this
            works once and expires in {{expiresInMinutes}} minutes.</p>
            <!--magic--><p><a href="{{magicLink}}" style="display: inline-block; padding: 10px 18px; background: #222;
            color: #fff; text-decoration: none; border-radius: 4px;">Recover my account</a></p><!--/magic-->
            <p>Or paste this recovery code into {{appName}}:</p>
            <pre style="white-space: pre-wrap; word-break: break-all; background: #f4f4f4; padding: 12px;">{{credentialBundle}}</pre>
            <p>If you did not ask for this, ignore this email: nothing changes without the code.</p>
            </body></html>
            """;

    private static final String BUILT_IN_TEXT = """
            Recover your {{appName}} account

            Someone asked to recover the {{appName}} account of {{email}}. If it was you, continue below; this works
            once and expires in {{expiresInMinutes}} minutes.

            [magic]Open this link: {{magicLink}}
            [/magic]
            Or paste this recovery code into {{appName}}:

            {{credentialBundle}}

            If you did not ask for this, ignore this email: nothing changes without the code.
            """;

    private static final String CODE_HTML = """
            <!doctype html>
            <html><body style="font-family: sans-serif; color: #222; max-width: 560px; margin: 24px auto;">
            <!--logo--><p><img src="{{logoUrl}}" alt="{{appName}}" style="max-width: 340px; max-height: 124px;"></p><!--/logo-->
            <h2>Your {{appName}} sign-in code</h2>
            <p>Enter this code to sign in to {{appName}} as {{email}}. It works once and expires in
            {{expiresInMinutes}} minutes.</p>
            <p style="font-size: 28px; letter-spacing: 4px; font-family: monospace;">{{otpCode}}</p>
            <!--magic--><p><a href="{{magicLink}}">Or sign in with this link</a></p><!--/magic-->
            <p>If you did not ask for this, ignore this email.</p>
            </body></html>
            """;

    private static final String CODE_TEXT = """
            Your {{appName}} sign-in code

            Enter this code to sign in to {{appName}} as {{email}}. It works once and expires in {{expiresInMinutes}}
            minutes.

                {{otpCode}}

            [magic]Or sign in with this link: {{magicLink}}
            [/magic]
            If you did not ask for this, ignore this email.
            """;

    private static final String SIGN_IN_HTML = """
            <!doctype html>
            <html><body style="font-family: sans-serif; color: #222; max-width: 560px; margin: 24px auto;">
            <!--logo--><p><img src="{{logoUrl}}" alt="{{appName}}" style="max-width: 340px; max-height: 124px;"></p><!--/logo-->
            <h2>Sign in to {{appName}}</h2>
            <p>Someone asked to sign in to {{appName}} as {{email}}. If it was you, continue below; this expires in
            {{expiresInMinutes}} minutes.</p>
            <!--magic--><p><a href="{{magicLink}}" style="display: inline-block; padding: 10px 18px; background: #222;
            color: #fff; text-decoration: none; border-radius: 4px;">Sign in</a></p><!--/magic-->
            <p>Or paste this sign-in code into {{appName}}:</p>
            <pre style="white-space: pre-wrap; word-break: break-all; background: #f4f4f4; padding: 12px;">{{credentialBundle}}</pre>
            <p>If you did not ask for this, ignore this email: nothing happens without the code.</p>
            </body></html>
            """;

    private static final String SIGN_IN_TEXT = """
            Sign in to {{appName}}

            Someone asked to sign in to {{appName}} as {{email}}. If it was you, continue below; this expires in
            {{expiresInMinutes}} minutes.

            [magic]Open this link: {{magicLink}}
            [/magic]
            Or paste this sign-in code into {{appName}}:

            {{credentialBundle}}

            If you did not ask for this, ignore this email: nothing happens without the code.
            """;
}
