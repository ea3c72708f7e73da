package dev.keyhaven.server.authproxy;

import dev.keyhaven.server.api.ApiException;
import dev.keyhaven.server.api.Params;
import dev.keyhaven.server.otp.OtpService;
import dev.keyhaven.server.session.Sessions;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.List;
import java.util.Optional;

/**
 * One organization's auth-proxy configuration. {@code allowedOrigins} lists the browser origins that may call
 * ({@code *}: any); a request without an {@code Origin} header (not from a browser) is not origin-checked.
 */
public record AuthProxyConfig(
        String id,
        String organizationId,
        List<String> allowedOrigins,
        boolean emailEnabled,
        boolean smsEnabled,
        int otpLength,
        boolean alphanumeric,
        long otpExpirationSeconds,
        long sessionExpirationSeconds,
        String appName,
        Optional<String> emailTemplateId,
        boolean signupEnabled) {

    public AuthProxyConfig {
        allowedOrigins = List.copyOf(allowedOrigins);
    }

    /** What {@code init} creates for the root organization: email codes, 6 digits, any origin. */
    public static AuthProxyConfig defaults(String id, String organizationId) {
        return new AuthProxyConfig(
                id,
                organizationId,
                List.of("*"),
                true,
                false,
                6,
                false,
                OtpService.DEFAULT_OTP_SECONDS,
                Sessions.DEFAULT_SECONDS,
                "Keyhaven",
                Optional.empty(),
                false);
    }

    public boolean allows(String origin) {
        return allowedOrigins.contains("*") || allowedOrigins.contains(origin);
    }

    /** This configuration with the fields {@code p} names changed; every problem is a 400 naming the field. */
    public AuthProxyConfig with(Params p) {
        List<String> origins = p.has("allowedOrigins") ? p.optionalStrings("allowedOrigins") : allowedOrigins;
        for (String origin : origins) {
            if (!origin.equals("*") && !isOrigin(origin)) {
                throw ApiException.badField(
                        p.pathOf("allowedOrigins"),
                        "holds '" + origin + "', which is neither * nor an origin (scheme://host[:port])");
            }
        }
        String name = p.optionalString("appName").orElse(appName);
        if (name.isBlank() || name.length() > 200) {
            throw ApiException.badField(p.pathOf("appName"), "must be 1 to 200 characters");
        }
        return new AuthProxyConfig(
                id,
                organizationId,
                origins,
                p.optionalBoolean("emailEnabled", emailEnabled),
                p.optionalBoolean("smsEnabled", smsEnabled),
                OtpService.codeLength(p.optionalInt("otpLength"), otpLength, p.pathOf("otpLength")),
                p.optionalBoolean("alphanumeric", alphanumeric),
                OtpService.otpLifetime(
                        p.optionalUint64("otpExpirationSeconds").or(() -> Optional.of(otpExpirationSeconds)),
                        p.pathOf("otpExpirationSeconds")),
                Sessions.lifetime(
                        p.optionalUint64("sessionExpirationSeconds"),
                        sessionExpirationSeconds,
                        p.pathOf("sessionExpirationSeconds")),
                name,
                p.has("emailTemplateId")
                        ? p.optionalString("emailTemplateId").filter(s -> !s.isBlank())
                        : emailTemplateId,
                p.optionalBoolean("signupEnabled", signupEnabled));
    }

    private static boolean isOrigin(String origin) {
        try {
            URI uri = new URI(origin);
            return ("https".equals(uri.getScheme()) || "http".equals(uri.getScheme()))
                    && uri.getHost() != null
                    && (uri.getRawPath() == null || uri.getRawPath().isEmpty())
                    && uri.getRawQuery() == null;
        } catch (URISyntaxException e) {
            return false;
        }
    }
}
