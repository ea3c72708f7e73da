package dev.keyhaven.server.authproxy;

import dev.keyhaven.server.api.ApiException;
import dev.keyhaven.server.api.ErrorCode;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Optional;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;

/**
 * Checks the captcha token the official clients send ({@code X-Captcha-Token}) with a Turnstile-compatible
 * {@code siteverify} endpoint: a form {@code secret}, {@code response}, {@code remoteip} posted to it, answered
 * {@code {"success": true|false, …}}. A deployment without one ({@link #NONE}) ignores the tokens. With one, a
 * configuration that enables captchas gets the site key from {@code /v1/wallet_kit_client_params} and its OTP inits
 * and sign-ups need a token the endpoint accepts: none is a 403, a refused one a 403, an endpoint that cannot be
 * asked a 503 (fail closed). The secret is never logged nor shown.
 */
public final class CaptchaVerifier {
    /** No captcha verification: tokens are ignored, and no site key is published. */
    public static final CaptchaVerifier NONE = new CaptchaVerifier(Optional.empty(), "", "", null);

    private static final ObjectMapper JSON = JsonMapper.builder().build();
    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    private final Optional<URI> verifyUrl;
    private final String siteKey;
    private final String secret;
    private final HttpClient http;

    private CaptchaVerifier(Optional<URI> verifyUrl, String siteKey, String secret, HttpClient http) {
        this.verifyUrl = verifyUrl;
        this.siteKey = siteKey;
        this.secret = secret;
        this.http = http;
    }

    /**
     * @param verifyUrl the {@code siteverify} endpoint (Cloudflare's:
     *        {@code https://challenges.cloudflare.com/turnstile/v0/siteverify})
     * @param siteKey the public site key the widget is rendered with (given to browsers)
     * @param secret the secret paired with the site key (sent to the endpoint only)
     */
    public static CaptchaVerifier turnstile(URI verifyUrl, String siteKey, String secret) {
        return new CaptchaVerifier(
                Optional.of(verifyUrl),
                siteKey,
                secret,
                HttpClient.newBuilder()
                        .connectTimeout(TIMEOUT)
                        .followRedirects(HttpClient.Redirect.NEVER)
                        .build());
    }

    /** Whether this deployment verifies captchas. */
    public boolean enabled() {
        return verifyUrl.isPresent();
    }

    /** The site key browsers render the widget with, when this deployment verifies captchas. */
    public Optional<String> siteKey() {
        return verifyUrl.map(url -> siteKey);
    }

    /** Where tokens are checked (no secret in it), for the start-up log. */
    public String describe() {
        return verifyUrl.map(url -> "verified at " + url).orElse("not verified (tokens are ignored)");
    }

    /**
     * Checks {@code token} for a request from {@code clientAddress}.
     *
     * @throws ApiException 403 when there is no token or the endpoint refuses it, 503 when it cannot be asked
     */
    public void verify(Optional<String> token, String clientAddress) {
        URI url = verifyUrl.orElseThrow(() -> new IllegalStateException("no captcha verifier is configured"));
        String response = token.filter(t -> !t.isBlank())
                .orElseThrow(() -> new ApiException(
                        ErrorCode.REQUEST_NOT_AUTHORIZED,
                        "a captcha token (X-Captcha-Token) is required by this auth proxy config"));
        String form =
                "secret=" + encode(secret) + "&response=" + encode(response) + "&remoteip=" + encode(clientAddress);
        HttpResponse<String> answer;
        try {
            answer = http.send(
                    HttpRequest.newBuilder(url)
                            .timeout(TIMEOUT)
                            .header("Content-Type", "application/x-www-form-urlencoded")
                            .POST(HttpRequest.BodyPublishers.ofString(form))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw unavailable();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw unavailable();
        }
        if (answer.statusCode() != 200) {
            throw unavailable();
        }
        JsonNode verdict;
        try {
            verdict = JSON.readTree(answer.body());
        } catch (JacksonException e) {
            throw unavailable();
        }
        if (!verdict.path("success").asBoolean(false)) {
            throw new ApiException(ErrorCode.REQUEST_NOT_AUTHORIZED, "the captcha token was not accepted");
        }
    }

    private static ApiException unavailable() {
        return new ApiException(ErrorCode.UNAVAILABLE, "the captcha verifier could not be asked; try again later");
    }

    private static String encode(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8);
    }

    @Override
    public String toString() {
        return "CaptchaVerifier[" + describe() + ", secret redacted]";
    }
}
