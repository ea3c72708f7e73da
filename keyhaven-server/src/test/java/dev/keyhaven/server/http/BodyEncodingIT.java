package dev.keyhaven.server.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.keyhaven.client.KeyhavenClient.RawResponse;
import dev.keyhaven.server.app.KeyhavenConfig;
import dev.keyhaven.server.app.OtpSettings;
import dev.keyhaven.server.testing.Json;
import dev.keyhaven.server.testing.OnBothStores;
import java.io.ByteArrayOutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * Bodies in another encoding than UTF-8, and strings holding characters no store keeps alike (NUL, unpaired
 * surrogates), on both listeners and both stores: each is a 400 that names the problem, before anything is stored.
 */
class BodyEncodingIT extends OnBothStores {
    private static final byte[] UTF_8_BOM = {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF};
    private static final byte[] UTF_16LE_BOM = {(byte) 0xFF, (byte) 0xFE};
    private static final byte[] UTF_16BE_BOM = {(byte) 0xFE, (byte) 0xFF};
    private static final byte[] UTF_32BE_BOM = {0, 0, (byte) 0xFE, (byte) 0xFF};
    private static final Charset UTF_32BE = Charset.forName("UTF-32BE");
    private static final Charset UTF_32LE = Charset.forName("UTF-32LE");
    private static final String SEND_UTF_8 = "; send JSON as UTF-8";

    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @Override
    protected KeyhavenConfig configure(KeyhavenConfig defaults) {
        return defaults.withOtp(OtpSettings.defaults().withAuthProxyPort(OptionalInt.of(0)));
    }

    private String whoami() {
        return "{\"organizationId\":\"" + server.organizationId() + "\"}";
    }

    private RawResponse query(byte[] body) {
        return root.post("/public/v1/query/whoami", body, Map.of(), true);
    }

    private RawResponse createWallet(String walletNameJson) {
        String body = "{\"type\":\"ACTIVITY_TYPE_CREATE_WALLET\",\"timestampMs\":\"" + System.currentTimeMillis()
                + "\",\"organizationId\":\"" + server.organizationId() + "\",\"parameters\":{\"walletName\":"
                + walletNameJson + ",\"accounts\":[]}}";
        return root.post("/public/v1/submit/create_wallet", Json.bytes(body), Map.of(), true);
    }

    private static byte[] concat(byte[] first, byte[] second) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(first);
        out.writeBytes(second);
        return out.toByteArray();
    }

    private static void assertBadRequest(int status, byte[] body, String message, String field) {
        assertThat(status).as(new String(body, StandardCharsets.UTF_8)).isEqualTo(400);
        JsonNode error = Json.parse(body);
        assertThat(error.path("code").asInt()).isEqualTo(3);
        assertThat(error.path("message").asString()).isEqualTo(message);
        assertThat(error.path("turnkeyErrorCode").asString()).isEqualTo("REQUEST_INVALID");
        JsonNode violation =
                error.path("details").path(1).path("fieldViolations").path(0);
        if (field == null) {
            assertThat(error.path("details").size()).as("no field violation").isEqualTo(1);
        } else {
            assertThat(violation.path("field").asString()).isEqualTo(field);
            assertThat(violation.path("description").asString()).isEqualTo(message);
        }
    }

    private static void assertBadRequest(RawResponse response, String message, String field) {
        assertThat(response.contentType()).isEqualTo("application/json");
        assertBadRequest(response.status(), response.body(), message, field);
    }

    @Test
    void bodiesInUtf16OrUtf32AreRefusedNamingTheEncoding() {
        String text = whoami();
        assertBadRequest(
                query(concat(UTF_16LE_BOM, text.getBytes(StandardCharsets.UTF_16LE))),
                "bad request body: not UTF-8 but UTF-16LE (by its byte order mark)" + SEND_UTF_8,
                null);
        assertBadRequest(
                query(concat(UTF_16BE_BOM, text.getBytes(StandardCharsets.UTF_16BE))),
                "bad request body: not UTF-8 but UTF-16BE (by its byte order mark)" + SEND_UTF_8,
                null);
        assertBadRequest(
                query(text.getBytes(StandardCharsets.UTF_16LE)),
                "bad request body: not UTF-8 but UTF-16LE" + SEND_UTF_8,
                null);
        assertBadRequest(
                query(text.getBytes(StandardCharsets.UTF_16BE)),
                "bad request body: not UTF-8 but UTF-16BE" + SEND_UTF_8,
                null);
        assertBadRequest(
                query(concat(UTF_32BE_BOM, text.getBytes(UTF_32BE))),
                "bad request body: not UTF-8 but UTF-32BE (by its byte order mark)" + SEND_UTF_8,
                null);
        assertBadRequest(query(text.getBytes(UTF_32BE)), "bad request body: not UTF-8 but UTF-32BE" + SEND_UTF_8, null);
        assertBadRequest(query(text.getBytes(UTF_32LE)), "bad request body: not UTF-8 but UTF-32LE" + SEND_UTF_8, null);
    }

    @Test
    void aByteOrderMarkOrANulByteInUtf8IsRefused() {
        assertBadRequest(
                query(concat(UTF_8_BOM, Json.bytes(whoami()))),
                "bad request body: starts with a byte order mark" + SEND_UTF_8 + " without one",
                null);
        byte[] nul = Json.bytes("{\"organizationId\":\"" + server.organizationId() + "\",\"x\":1}  ");
        nul[nul.length - 1] = 0;
        assertBadRequest(
                query(nul),
                "bad request body: not UTF-8 (a NUL byte at offset " + (nul.length - 1) + ")" + SEND_UTF_8,
                null);
    }

    @Test
    void invalidUtf8IsRefusedNamingTheOffset() {
        String prefix = "{\"organizationId\":\"" + server.organizationId() + "\",\"x\":\"";
        int offset = Json.bytes(prefix).length;
        // A lone continuation byte, an overlong '/', an encoded surrogate (CESU-8), a Latin-1 'é'.
        for (byte[] bad : List.of(
                new byte[] {(byte) 0x80},
                new byte[] {(byte) 0xC0, (byte) 0xAF},
                new byte[] {(byte) 0xED, (byte) 0xA0, (byte) 0x80},
                new byte[] {(byte) 0xE9, 'a'})) {
            byte[] body = concat(concat(Json.bytes(prefix), bad), Json.bytes("\"}"));
            assertBadRequest(
                    query(body), "bad request body: not valid UTF-8 at byte offset " + offset + SEND_UTF_8, null);
        }
    }

    @Test
    void aNulCharacterInAnyStringIsRefusedNamingItsPath() {
        assertBadRequest(
                createWallet("\"Main\\u0000wallet\""),
                "bad request body: parameters.walletName contains a NUL character (U+0000)",
                "parameters.walletName");
        assertBadRequest(
                query(Json.bytes("{\"organizationId\":\"" + server.organizationId()
                        + "\",\"notes\":[\"fine\",{\"deep\":\"\\u0000\"}]}")),
                "bad request body: notes[1].deep contains a NUL character (U+0000)",
                "notes[1].deep");
        assertBadRequest(
                query(Json.bytes(
                        "{\"organizationId\":\"" + server.organizationId() + "\",\"meta\":{\"a\\u0000b\":1}}")),
                "bad request body: meta has a member name with a NUL character (U+0000)",
                "meta");
        assertBadRequest(
                query(Json.bytes("{\"organizationId\":\"" + server.organizationId() + "\",\"a\\u0000b\":1}")),
                "bad request body: a member name contains a NUL character (U+0000)",
                null);
        assertThat(root.listWallets().path("wallets")).as("nothing was stored").isEmpty();
    }

    @Test
    void anUnpairedSurrogateIsRefused() {
        assertBadRequest(
                createWallet("\"Main \\ud800 wallet\""),
                "bad request body: parameters.walletName contains an unpaired surrogate (\\ud800), which is not a "
                        + "Unicode character",
                "parameters.walletName");
        assertBadRequest(
                createWallet("\"\\udc00\""),
                "bad request body: parameters.walletName contains an unpaired surrogate (\\udc00), which is not a "
                        + "Unicode character",
                "parameters.walletName");
        assertThat(root.listWallets().path("wallets")).as("nothing was stored").isEmpty();
        assertThat(createWallet("\"Main \\ud83d\\udd11 wallet\"").status())
                .as("a pair is a character")
                .isEqualTo(200);
    }

    private HttpResponse<byte[]> proxy(byte[] body) throws Exception {
        String configId = server.keyhaven().authProxyConfigs().isEmpty()
                ? server.keyhaven().createDefaultAuthProxyConfig(server.organizationId())
                : server.keyhaven().authProxyConfigs().getFirst().id();
        return http.send(
                HttpRequest.newBuilder(URI.create(server.authProxyUrl() + "/v1/otp_init_v2"))
                        .timeout(Duration.ofSeconds(30))
                        .header("Content-Type", "application/json")
                        .header("X-Auth-Proxy-Config-Id", configId)
                        .POST(HttpRequest.BodyPublishers.ofByteArray(body))
                        .build(),
                HttpResponse.BodyHandlers.ofByteArray());
    }

    @Test
    void theAuthProxyRefusesTheSameBodies() throws Exception {
        String init = "{\"otpType\":\"OTP_TYPE_EMAIL\",\"contact\":\"someone@example.com\"}";
        HttpResponse<byte[]> utf16 = proxy(concat(UTF_16LE_BOM, init.getBytes(StandardCharsets.UTF_16LE)));
        assertBadRequest(
                utf16.statusCode(),
                utf16.body(),
                "bad request body: not UTF-8 but UTF-16LE (by its byte order mark)" + SEND_UTF_8,
                null);
        HttpResponse<byte[]> utf16BigEndian = proxy(init.getBytes(StandardCharsets.UTF_16BE));
        assertBadRequest(
                utf16BigEndian.statusCode(),
                utf16BigEndian.body(),
                "bad request body: not UTF-8 but UTF-16BE" + SEND_UTF_8,
                null);
        HttpResponse<byte[]> nul = proxy(Json.bytes("{\"otpType\":\"OTP_TYPE_EMAIL\",\"contact\":"
                + "\"someone@example.com\",\"appName\":\"Acme\\u0000\"}"));
        assertBadRequest(
                nul.statusCode(), nul.body(), "bad request body: appName contains a NUL character (U+0000)", "appName");
        String latin1 = init.replace("someone", "ren\u00e9");
        HttpResponse<byte[]> notUtf8 = proxy(latin1.getBytes(StandardCharsets.ISO_8859_1));
        assertBadRequest(
                notUtf8.statusCode(),
                notUtf8.body(),
                "bad request body: not valid UTF-8 at byte offset " + latin1.indexOf('\u00e9') + SEND_UTF_8,
                null);
    }
}
