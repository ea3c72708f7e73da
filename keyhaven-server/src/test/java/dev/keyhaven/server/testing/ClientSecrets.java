package dev.keyhaven.server.testing;

import dev.keyhaven.crypto.SecretBytes;
import dev.keyhaven.crypto.bundle.QuorumEnvelope;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.HexFormat;
import tools.jackson.databind.json.JsonMapper;

/** The client side of OAuth 2.0 client secrets: what {@code encryptOauth2ClientSecret} does, to a server's key. */
public final class ClientSecrets {
    public static final String DISCOVERY_PATH = "/public/v1/discovery/oauth2-encryption-key";
    private static final SecureRandom RANDOM = new SecureRandom();

    private ClientSecrets() {}

    /** The server's credential-encryption key, fetched unauthenticated from its discovery endpoint. */
    public static String encryptionKey(String baseUrl) {
        try {
            HttpResponse<String> response = HttpClient.newHttpClient()
                    .send(
                            HttpRequest.newBuilder(URI.create(baseUrl + DISCOVERY_PATH))
                                    .GET()
                                    .build(),
                            HttpResponse.BodyHandlers.ofString());
            return JsonMapper.builder()
                    .build()
                    .readTree(response.body())
                    .path("publicKey")
                    .asString();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** {@code secret} encrypted to {@code publicKeyHex}: the hex envelope {@code encryptOauth2ClientSecret} returns. */
    public static String encrypt(String publicKeyHex, String secret) {
        try (SecretBytes plain = SecretBytes.copyOf(secret.getBytes(StandardCharsets.UTF_8))) {
            return HexFormat.of().formatHex(QuorumEnvelope.seal(HexFormat.of().parseHex(publicKeyHex), plain, RANDOM));
        }
    }
}
