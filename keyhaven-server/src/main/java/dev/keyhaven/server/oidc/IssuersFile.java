package dev.keyhaven.server.oidc;

import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Reads the trusted-issuers file ({@code serve --oidc-issuers}): a JSON array of
 * {@code {"issuer", "jwksUri" | "jwksFile", "audiences": [...]}}. Operator configuration, so an {@code http} JWKS URL
 * is allowed; a relative {@code jwksFile} is relative to the file. Every problem names the entry, so the server
 * refuses to start with a message the operator can act on.
 */
public final class IssuersFile {
    private static final Set<String> FIELDS = Set.of("issuer", "jwksUri", "jwksFile", "audiences");

    private IssuersFile() {}

    /** The entries of {@code file}; {@link IllegalArgumentException} naming the entry and the problem otherwise. */
    public static List<IssuerConfig> read(Path file) {
        String text;
        try {
            text = Files.readString(file);
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot read the OIDC issuers file " + file + ": " + e.getMessage(), e);
        }
        return parse(text, Optional.ofNullable(file.toAbsolutePath().getParent()));
    }

    /** Parses the file's text; relative JWKS files resolve against {@code directory} when given. */
    public static List<IssuerConfig> parse(String text, Optional<Path> directory) {
        JsonNode root;
        try {
            root = JsonMapper.builder().build().readTree(text);
        } catch (JacksonException e) {
            throw new IllegalArgumentException("the OIDC issuers file is not valid JSON");
        }
        if (root == null || !root.isArray()) {
            throw new IllegalArgumentException("the OIDC issuers file must hold a JSON array of issuers");
        }
        List<IssuerConfig> issuers = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < root.size(); i++) {
            IssuerConfig entry = entry(root.get(i), "OIDC issuers file entry " + i, directory);
            if (!seen.add(entry.issuer())) {
                throw new IllegalArgumentException(
                        "OIDC issuers file entry " + i + ": issuer " + entry.issuer() + " is listed twice");
            }
            issuers.add(entry);
        }
        return List.copyOf(issuers);
    }

    private static IssuerConfig entry(JsonNode node, String where, Optional<Path> directory) {
        if (node == null || !node.isObject()) {
            throw new IllegalArgumentException(where + ": must be a JSON object");
        }
        for (String name : node.propertyNames()) {
            if (!FIELDS.contains(name)) {
                throw new IllegalArgumentException(
                        where + ": unknown field " + name + " (allowed: issuer, jwksUri, " + "jwksFile, audiences)");
            }
        }
        String issuer = text(node, "issuer", where)
                .orElseThrow(() -> new IllegalArgumentException(where + ": issuer is required"));
        String named = where + " (" + issuer + ")";
        Optional<String> uri = text(node, "jwksUri", named);
        Optional<String> file = text(node, "jwksFile", named);
        if (uri.isPresent() == file.isPresent()) {
            throw new IllegalArgumentException(named + ": needs exactly one of jwksUri and jwksFile");
        }
        JsonNode audiences = node.get("audiences");
        if (audiences == null || !audiences.isArray() || audiences.isEmpty()) {
            throw new IllegalArgumentException(named + ": audiences must be a non-empty array of strings");
        }
        List<String> values = new ArrayList<>();
        for (JsonNode audience : audiences) {
            if (!audience.isString() || audience.stringValue().isBlank()) {
                throw new IllegalArgumentException(named + ": audiences must be a non-empty array of strings");
            }
            values.add(audience.stringValue());
        }
        return new IssuerConfig(
                issuer,
                uri.map(u -> jwksUri(u, named)),
                file.map(f -> directory.map(d -> d.resolve(f)).orElse(Path.of(f))),
                values);
    }

    private static URI jwksUri(String value, String where) {
        try {
            URI uri = new URI(value);
            if (!("https".equals(uri.getScheme()) || "http".equals(uri.getScheme())) || uri.getHost() == null) {
                throw new IllegalArgumentException(where + ": jwksUri must be an http(s) URL");
            }
            return uri;
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException(where + ": jwksUri must be an http(s) URL");
        }
    }

    private static Optional<String> text(JsonNode node, String name, String where) {
        JsonNode value = node.get(name);
        if (value == null || value.isNull()) {
            return Optional.empty();
        }
        if (!value.isString() || value.stringValue().isBlank()) {
            throw new IllegalArgumentException(where + ": " + name + " must be a non-empty string");
        }
        return Optional.of(value.stringValue());
    }
}
