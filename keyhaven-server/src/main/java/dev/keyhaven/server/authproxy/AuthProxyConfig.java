package dev.keyhaven.server.authproxy;

import dev.keyhaven.server.api.ApiException;
import dev.keyhaven.server.api.Params;
import dev.keyhaven.server.otp.OtpService;
import dev.keyhaven.server.session.Sessions;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import tools.jackson.databind.JsonNode;

/**
 * One organization's auth-proxy configuration. {@code allowedOrigins} lists the browser origins that may call
 * ({@code *}: any); a request without an {@code Origin} header (not from a browser) is not origin-checked.
 *
 * <p>What {@code /v1/wallet_kit_config} reports to the wallet kit comes from here: the login methods
 * ({@code email} and {@code sms} from {@code emailEnabled}/{@code smsEnabled}, the others from
 * {@code enabledProviders}), the session lifetime, the OTP length and alphabet, the OAuth client ids and redirect
 * URL. {@code captchaEnabled} asks for a captcha on OTP init and sign-up; it is enforced only where the deployment
 * verifies captchas ({@code serve --captcha-verify-url}).
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
        boolean signupEnabled,
        List<String> enabledProviders,
        Map<String, String> oauthClientIds,
        Optional<String> oauthRedirectUrl,
        boolean captchaEnabled) {

    /**
     * The wallet kit's login methods besides {@code email} and {@code sms}, in the kit's spelling, and {@code oidc}:
     * Keyhaven's name for sign-up with a trusted OIDC issuer that is none of the kit's providers (see
     * {@link SignUpMethods}).
     */
    public static final List<String> PROVIDERS =
            List.of("passkey", "wallet", "google", "apple", "facebook", "x", "discord", "oidc");
    /** The OAuth providers a client id can be given for. */
    public static final List<String> OAUTH_PROVIDERS = List.of("google", "apple", "facebook", "x", "discord");

    public AuthProxyConfig {
        allowedOrigins = List.copyOf(allowedOrigins);
        enabledProviders = List.copyOf(enabledProviders);
        oauthClientIds = Collections.unmodifiableMap(new TreeMap<>(oauthClientIds));
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
                false,
                List.of(),
                Map.of(),
                Optional.empty(),
                false);
    }

    /**
     * Every login method this configuration offers, as the wallet kit names them: {@code email}, {@code sms}, then
     * {@link #enabledProviders()}.
     */
    public List<String> loginMethods() {
        List<String> methods = new ArrayList<>();
        if (emailEnabled) {
            methods.add("email");
        }
        if (smsEnabled) {
            methods.add("sms");
        }
        methods.addAll(enabledProviders);
        return List.copyOf(methods);
    }

    /**
     * Whether a new account may be signed up with {@code method} (a {@link #loginMethods()} name): sign-up is on and
     * the method is offered.
     */
    public boolean allowsSignUpWith(String method) {
        return signupEnabled && loginMethods().contains(method);
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
                p.optionalBoolean("signupEnabled", signupEnabled),
                p.has("enabledProviders") ? providers(p) : enabledProviders,
                p.has("oauthClientIds") ? clientIds(p.requiredObject("oauthClientIds")) : oauthClientIds,
                p.has("oauthRedirectUrl") ? redirectUrl(p) : oauthRedirectUrl,
                p.optionalBoolean("captchaEnabled", captchaEnabled));
    }

    private static List<String> providers(Params p) {
        List<String> given = p.optionalStrings("enabledProviders");
        Set<String> seen = new LinkedHashSet<>();
        for (String provider : given) {
            if (provider.equals("email") || provider.equals("sms")) {
                throw ApiException.badField(
                        p.pathOf("enabledProviders"),
                        "holds '" + provider + "': email and sms codes are turned on with emailEnabled and smsEnabled");
            }
            if (!PROVIDERS.contains(provider)) {
                throw ApiException.badField(
                        p.pathOf("enabledProviders"), "holds '" + provider + "', which is none of " + PROVIDERS);
            }
            if (!seen.add(provider)) {
                throw ApiException.badField(p.pathOf("enabledProviders"), "holds '" + provider + "' twice");
            }
        }
        return List.copyOf(seen);
    }

    private static Map<String, String> clientIds(Params ids) {
        Map<String, String> out = new TreeMap<>();
        for (Map.Entry<String, JsonNode> entry : ids.node().properties()) {
            String provider = entry.getKey();
            if (!OAUTH_PROVIDERS.contains(provider)) {
                throw ApiException.badField(ids.pathOf(provider), "is not an OAuth provider (" + OAUTH_PROVIDERS + ")");
            }
            String id = ids.requiredString(provider);
            if (id.isBlank() || id.length() > 500) {
                throw ApiException.badField(ids.pathOf(provider), "must be a client id of 1 to 500 characters");
            }
            out.put(provider, id);
        }
        return out;
    }

    private static Optional<String> redirectUrl(Params p) {
        Optional<String> url = p.optionalString("oauthRedirectUrl").filter(s -> !s.isBlank());
        url.ifPresent(u -> {
            try {
                URI uri = new URI(u);
                if (!("https".equals(uri.getScheme()) || "http".equals(uri.getScheme())) || uri.getHost() == null) {
                    throw ApiException.badField(p.pathOf("oauthRedirectUrl"), "must be an absolute http(s) URL");
                }
            } catch (URISyntaxException e) {
                throw ApiException.badField(p.pathOf("oauthRedirectUrl"), "must be an absolute http(s) URL");
            }
        });
        return url;
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
