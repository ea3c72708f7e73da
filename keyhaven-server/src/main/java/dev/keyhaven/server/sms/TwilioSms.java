package dev.keyhaven.server.sms;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;

/**
 * Twilio's REST message API: {@code POST {baseUrl}/2010-04-01/Accounts/{account}/Messages.json} with the form
 * fields {@code To}, {@code From}, {@code Body} and HTTP basic authentication (account SID, auth token). Any 2xx is
 * success; timeouts 10 s.
 */
public final class TwilioSms implements SmsSender {
    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    private final URI endpoint;
    private final String from;
    private final String authorization;
    private final HttpClient http;

    public TwilioSms(String baseUrl, String accountSid, String authToken, String from) {
        String base = baseUrl.endsWith("/") ? baseUrl.substring(0, baseUrl.length() - 1) : baseUrl;
        this.endpoint = URI.create(base + "/2010-04-01/Accounts/"
                + URLEncoder.encode(accountSid, StandardCharsets.UTF_8) + "/Messages.json");
        this.from = from;
        this.authorization = "Basic "
                + Base64.getEncoder().encodeToString((accountSid + ":" + authToken).getBytes(StandardCharsets.UTF_8));
        this.http = HttpClient.newBuilder().connectTimeout(TIMEOUT).build();
    }

    @Override
    public void send(String to, String text) throws SmsException {
        String form = "To=" + enc(to) + "&From=" + enc(from) + "&Body=" + enc(text);
        HttpRequest request = HttpRequest.newBuilder(endpoint)
                .timeout(TIMEOUT)
                .header("Authorization", authorization)
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(form))
                .build();
        try {
            HttpResponse<Void> response = http.send(request, HttpResponse.BodyHandlers.discarding());
            if (response.statusCode() / 100 != 2) {
                throw new SmsException("the SMS provider answered HTTP " + response.statusCode());
            }
        } catch (IOException e) {
            throw new SmsException(
                    "the SMS provider could not be reached: " + e.getClass().getSimpleName());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SmsException("interrupted while sending");
        }
    }

    private static String enc(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }

    @Override
    public String describe() {
        return "Twilio at " + endpoint.getHost() + ":" + endpoint.getPort() + " from " + from;
    }

    @Override
    public String toString() {
        return "TwilioSms[" + endpoint + ", token redacted]";
    }
}
