package dev.keyhaven.server.oauth2;

import dev.keyhaven.server.api.ApiException;
import dev.keyhaven.server.api.ErrorCode;
import java.io.IOException;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;

/**
 * The authorization-code exchange with a provider (RFC 6749 §4.1.3 with PKCE): POST the token endpoint with the
 * client authenticated by HTTP Basic, then GET the userinfo endpoint with the bearer token for the user's id. Connect
 * timeout 5 s, 10 s for the whole exchange, redirects never followed, answers read up to 64 kB. Errors say what went
 * wrong without quoting the provider's body (it may echo the code or a token); only an RFC 6749 {@code error} code
 * is repeated.
 */
public final class Oauth2Exchange {
    static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(5);
    static final Duration EXCHANGE_TIMEOUT = Duration.ofSeconds(10);
    private static final int MAX_ANSWER_BYTES = 64 * 1024;
    private static final Pattern ERROR_CODE = Pattern.compile("[A-Za-z0-9_.-]{1,64}");
    private static final ObjectMapper JSON = JsonMapper.builder().build();

    private final HttpClient http;
    private final Duration exchangeTimeout;

    public Oauth2Exchange() {
        this(EXCHANGE_TIMEOUT);
    }

    Oauth2Exchange(Duration exchangeTimeout) {
        this.http = HttpClient.newBuilder()
                .connectTimeout(CONNECT_TIMEOUT)
                .followRedirects(HttpClient.Redirect.NEVER)
                .build();
        this.exchangeTimeout = exchangeTimeout;
    }

    /** What the provider said about the user: its id, and the bearer token (a credential: never logged). */
    public record ProviderUser(String subject, String bearerToken) {
        @Override
        public String toString() {
            return "ProviderUser[" + subject + ", bearer token redacted]";
        }
    }

    /** The code exchange the client asks for; the code and verifier are one-time secrets. */
    public record CodeGrant(String authCode, String redirectUri, String codeVerifier) {
        @Override
        public String toString() {
            return "CodeGrant[" + redirectUri + ", code and verifier redacted]";
        }
    }

    /**
     * Exchanges {@code grant} at {@code endpoints} and reads the user's id.
     *
     * @param authorization the {@code Authorization} header of the token request (HTTP Basic client credentials)
     * @throws ApiException {@code OAUTH2_PROVIDER_REJECTED} (400) when the token endpoint refuses the code,
     *         {@code OAUTH2_PROVIDER_UNAVAILABLE} (502) when a provider endpoint fails, times out, redirects or
     *         answers something unusable
     */
    public ProviderUser exchange(
            Oauth2Provider provider,
            Oauth2Providers.Endpoints endpoints,
            String clientId,
            String authorization,
            CodeGrant grant) {
        Instant deadline = Instant.now().plus(exchangeTimeout);
        Map<String, String> form = new LinkedHashMap<>();
        form.put("grant_type", "authorization_code");
        form.put("code", grant.authCode());
        form.put("redirect_uri", grant.redirectUri());
        if (!grant.codeVerifier().isEmpty()) {
            form.put("code_verifier", grant.codeVerifier());
        }
        form.put("client_id", clientId);
        HttpRequest tokenRequest = HttpRequest.newBuilder(endpoints.tokenEndpoint())
                .timeout(remaining(deadline, "token"))
                .header("Authorization", authorization)
                .header("Content-Type", "application/x-www-form-urlencoded")
                .header("Accept", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(formEncode(form)))
                .build();
        Answer token = send(tokenRequest, "token", deadline);
        if (token.status() >= 400 && token.status() < 500) {
            throw new ApiException(
                    ErrorCode.OAUTH2_PROVIDER_REJECTED,
                    "the OAuth 2.0 provider refused the " + "authorization code: its token endpoint answered HTTP "
                            + token.status() + errorCode(token));
        }
        requireOk(token, "token");
        String bearer = token.json().path("access_token").asString("");
        String type = token.json().path("token_type").asString("bearer");
        if (bearer.isEmpty() || !type.equalsIgnoreCase("bearer")) {
            throw unavailable("the OAuth 2.0 provider's token endpoint answered without a bearer access_token");
        }
        HttpRequest userinfoRequest = HttpRequest.newBuilder(endpoints.userinfoEndpoint())
                .timeout(remaining(deadline, "userinfo"))
                .header("Authorization", "Bearer " + bearer)
                .header("Accept", "application/json")
                .GET()
                .build();
        Answer userinfo = send(userinfoRequest, "userinfo", deadline);
        requireOk(userinfo, "userinfo");
        JsonNode id = provider == Oauth2Provider.OAUTH2_PROVIDER_X
                ? userinfo.json().path("data").path("id")
                : userinfo.json().path("id");
        if (!id.isString() || id.asString().isBlank()) {
            throw unavailable("the OAuth 2.0 provider's userinfo endpoint answered without the user's id ("
                    + (provider == Oauth2Provider.OAUTH2_PROVIDER_X ? "data.id" : "id") + ")");
        }
        return new ProviderUser(id.asString(), bearer);
    }

    /** A provider's answer: its status, and its body as JSON when it was JSON (else an empty object). */
    private record Answer(int status, JsonNode json) {}

    /** Sends {@code request}; its answer must arrive whole (status, headers and body) before {@code deadline}. */
    private Answer send(HttpRequest request, String endpoint, Instant deadline) {
        CompletableFuture<HttpResponse<byte[]>> sent = http.sendAsync(
                request, HttpResponse.BodyHandlers.limiting(HttpResponse.BodyHandlers.ofByteArray(), MAX_ANSWER_BYTES));
        try {
            HttpResponse<byte[]> response =
                    sent.get(remaining(deadline, endpoint).toMillis(), TimeUnit.MILLISECONDS);
            return new Answer(response.statusCode(), parse(response.body()));
        } catch (TimeoutException e) {
            sent.cancel(true);
            throw unavailable("the OAuth 2.0 provider's " + endpoint + " endpoint did not answer in time (the "
                    + "whole exchange may take " + exchangeTimeout.toSeconds() + " s)");
        } catch (ExecutionException e) {
            String problem = e.getCause() instanceof HttpTimeoutException
                    ? "did not answer in time"
                    : e.getCause() instanceof IOException io
                                    && io.getMessage() != null
                                    && io.getMessage().contains("exceeds")
                            ? "answered more than " + MAX_ANSWER_BYTES + " bytes"
                            : "could not be reached (" + e.getCause().getClass().getSimpleName() + ")";
            throw unavailable("the OAuth 2.0 provider's " + endpoint + " endpoint " + problem);
        } catch (InterruptedException e) {
            sent.cancel(true);
            Thread.currentThread().interrupt();
            throw unavailable("the OAuth 2.0 exchange was interrupted");
        }
    }

    private static JsonNode parse(byte[] body) {
        try {
            JsonNode json = JSON.readTree(body);
            return json == null || json.isMissingNode() ? JSON.createObjectNode() : json;
        } catch (JacksonException notJson) {
            return JSON.createObjectNode();
        }
    }

    private static void requireOk(Answer answer, String endpoint) {
        if (answer.status() != 200) {
            throw unavailable("the OAuth 2.0 provider's " + endpoint + " endpoint answered HTTP " + answer.status()
                    + (answer.status() >= 300 && answer.status() < 400 ? " (redirects are not followed)" : ""));
        }
        if (!answer.json().isObject() || answer.json().isEmpty()) {
            throw unavailable("the OAuth 2.0 provider's " + endpoint + " endpoint answered without a JSON object");
        }
    }

    /** {@code ": invalid_grant"} when the body carries an RFC 6749 error code (a token, never free text). */
    private static String errorCode(Answer answer) {
        String error = answer.json().path("error").asString("");
        return ERROR_CODE.matcher(error).matches() ? " (" + error + ")" : "";
    }

    private Duration remaining(Instant deadline, String endpoint) {
        Duration left = Duration.between(Instant.now(), deadline);
        if (left.isNegative() || left.isZero()) {
            throw unavailable("the OAuth 2.0 exchange took longer than " + exchangeTimeout.toSeconds()
                    + " s before the " + endpoint + " request");
        }
        return left;
    }

    private static ApiException unavailable(String message) {
        return new ApiException(ErrorCode.OAUTH2_PROVIDER_UNAVAILABLE, message);
    }

    private static String formEncode(Map<String, String> form) {
        return form.entrySet().stream()
                .map(e -> URLEncoder.encode(e.getKey(), StandardCharsets.UTF_8) + "="
                        + URLEncoder.encode(e.getValue(), StandardCharsets.UTF_8))
                .collect(Collectors.joining("&"));
    }

    @Override
    public String toString() {
        return "Oauth2Exchange[" + exchangeTimeout + "]";
    }
}
