package dev.keyhaven.server.oauth2;

import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumMap;
import java.util.Map;
import java.util.Set;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Where each OAuth 2.0 provider's token and userinfo endpoints are, and the issuer ({@code iss}) of the tokens
 * Keyhaven mints for its users: the real providers by default; an operator's file ({@code --oauth2-providers})
 * replaces the entries it names (tests point them at a local fake).
 */
public record Oauth2Providers(Map<Oauth2Provider, Endpoints> endpoints) {

    /** One provider's endpoints and the issuer of the tokens minted for its users. */
    public record Endpoints(URI tokenEndpoint, URI userinfoEndpoint, String issuer) {}

    public static final Oauth2Providers DEFAULT = new Oauth2Providers(Map.of(
            Oauth2Provider.OAUTH2_PROVIDER_X,
                    new Endpoints(
                            URI.create("https://api.x.com/2/oauth2/token"),
                            URI.create("https://api.x.com/2/users/me"),
                            "https://x.com"),
            Oauth2Provider.OAUTH2_PROVIDER_DISCORD,
                    new Endpoints(
                            URI.create("https://discord.com/api/oauth2/token"),
                            URI.create("https://discord.com/api/users/@me"),
                            "https://discord.com")));

    private static final Set<String> FIELDS = Set.of("provider", "tokenEndpoint", "userinfoEndpoint", "issuer");

    public Oauth2Providers {
        endpoints = Map.copyOf(endpoints);
    }

    public Endpoints of(Oauth2Provider provider) {
        return endpoints.get(provider);
    }

    /**
     * The defaults with the entries of {@code file} (a JSON array of {@code {"provider", "tokenEndpoint",
     * "userinfoEndpoint", "issuer"?}}) in their place.
     *
     * @throws IllegalArgumentException naming the file and the entry when it cannot be read or is invalid
     */
    public static Oauth2Providers read(Path file) {
        JsonNode entries;
        try {
            entries = JsonMapper.builder().build().readTree(Files.readString(file));
        } catch (IOException | JacksonException e) {
            throw new IllegalArgumentException(
                    "cannot read the OAuth 2.0 providers file " + file + ": " + e.getMessage());
        }
        if (!entries.isArray()) {
            throw new IllegalArgumentException("the OAuth 2.0 providers file " + file + " must hold a JSON array");
        }
        Map<Oauth2Provider, Endpoints> read = new EnumMap<>(DEFAULT.endpoints());
        Set<Oauth2Provider> named = java.util.EnumSet.noneOf(Oauth2Provider.class);
        for (int i = 0; i < entries.size(); i++) {
            String where = "entry " + i + " of the OAuth 2.0 providers file " + file;
            JsonNode entry = entries.get(i);
            if (!entry.isObject()) {
                throw new IllegalArgumentException(where + " must be an object");
            }
            for (String name : entry.propertyNames()) {
                if (!FIELDS.contains(name)) {
                    throw new IllegalArgumentException(
                            where + " has an unknown field '" + name + "' (known: " + FIELDS + ")");
                }
            }
            Oauth2Provider provider = provider(where, entry);
            if (!named.add(provider)) {
                throw new IllegalArgumentException(where + " names " + provider + " a second time");
            }
            String issuer = entry.has("issuer")
                    ? text(where, entry, "issuer")
                    : DEFAULT.of(provider).issuer();
            read.put(
                    provider,
                    new Endpoints(url(where, entry, "tokenEndpoint"), url(where, entry, "userinfoEndpoint"), issuer));
        }
        return new Oauth2Providers(read);
    }

    private static Oauth2Provider provider(String where, JsonNode entry) {
        String name = text(where, entry, "provider");
        return dev.keyhaven.server.api.WireEnum.fromWire(Oauth2Provider.class, name)
                .orElseThrow(() -> new IllegalArgumentException(
                        where + ": provider '" + name + "' is not OAUTH2_PROVIDER_X or " + "OAUTH2_PROVIDER_DISCORD"));
    }

    private static String text(String where, JsonNode entry, String field) {
        JsonNode value = entry.get(field);
        if (value == null || !value.isString() || value.asString().isBlank()) {
            throw new IllegalArgumentException(where + ": '" + field + "' must be a non-empty string");
        }
        return value.asString();
    }

    private static URI url(String where, JsonNode entry, String field) {
        String text = text(where, entry, field);
        try {
            URI uri = new URI(text);
            if (uri.getHost() == null || !("https".equals(uri.getScheme()) || "http".equals(uri.getScheme()))) {
                throw new URISyntaxException(text, "not an absolute http(s) URL");
            }
            return uri;
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException(
                    where + ": '" + field + "' must be an absolute http(s) URL, not '" + text + "'");
        }
    }
}
