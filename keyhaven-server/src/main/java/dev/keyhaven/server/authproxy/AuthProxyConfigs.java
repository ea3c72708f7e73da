package dev.keyhaven.server.authproxy;

import dev.keyhaven.server.api.ApiException;
import dev.keyhaven.server.api.ErrorCode;
import dev.keyhaven.server.api.Params;
import dev.keyhaven.server.tx.Transactor;
import dev.keyhaven.server.tx.Tx;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;

/** Reads and writes auth-proxy configurations. */
public final class AuthProxyConfigs {
    private static final ObjectMapper JSON = JsonMapper.builder().build();

    private final Transactor transactor;
    private final AuthProxyConfigRepository repository;

    public AuthProxyConfigs(Transactor transactor, AuthProxyConfigRepository repository) {
        this.transactor = transactor;
        this.repository = repository;
    }

    /** Creates the default configuration for {@code organizationId} (what {@code init} does for the root). */
    public AuthProxyConfig createDefault(Tx tx, String id, String organizationId, Instant now) {
        AuthProxyConfig config = AuthProxyConfig.defaults(id, organizationId);
        repository.insert(tx, stored(config), now);
        return config;
    }

    public void insert(Tx tx, AuthProxyConfig config, Instant now) {
        repository.insert(tx, stored(config), now);
    }

    public void update(Tx tx, AuthProxyConfig config, Instant now) {
        repository.update(tx, stored(config), now);
    }

    /**
     * Creates a configuration of {@code organizationId} from the defaults (no {@code configId}) or changes that
     * configuration of the organization ({@code organizationId} empty: of any organization), with the fields
     * {@code changes} names.
     */
    public AuthProxyConfig save(
            Tx tx,
            Optional<String> configId,
            String organizationId,
            Params changes,
            Instant now,
            java.util.function.Supplier<String> newId) {
        if (configId.isEmpty()) {
            AuthProxyConfig created =
                    AuthProxyConfig.defaults(newId.get(), organizationId).with(changes);
            insert(tx, created, now);
            return created;
        }
        AuthProxyConfig changed = find(tx, configId.get())
                .filter(c -> organizationId.isEmpty() || c.organizationId().equals(organizationId))
                .orElseThrow(() -> ApiException.notFound("no auth proxy config with id " + configId.get()
                        + (organizationId.isEmpty() ? "" : " in this organization")))
                .with(changes);
        update(tx, changed, now);
        return changed;
    }

    public Optional<AuthProxyConfig> find(Tx tx, String id) {
        return repository.find(tx, id).map(AuthProxyConfigs::parse);
    }

    /** The configuration a request names, read in its own transaction. */
    public AuthProxyConfig require(String id) {
        return transactor
                .read(tx -> find(tx, id))
                .orElseThrow(() -> new ApiException(ErrorCode.NOT_FOUND, "no auth proxy config with id " + id));
    }

    /** Every configuration, oldest first. */
    public List<AuthProxyConfig> all() {
        return transactor.read(
                tx -> repository.all(tx).stream().map(AuthProxyConfigs::parse).toList());
    }

    private static AuthProxyConfigRepository.Stored stored(AuthProxyConfig c) {
        return new AuthProxyConfigRepository.Stored(c.id(), c.organizationId(), JSON.writeValueAsString(settings(c)));
    }

    private static Map<String, Object> settings(AuthProxyConfig c) {
        Map<String, Object> s = new LinkedHashMap<>();
        s.put("allowedOrigins", c.allowedOrigins());
        s.put("emailEnabled", c.emailEnabled());
        s.put("smsEnabled", c.smsEnabled());
        s.put("otpLength", c.otpLength());
        s.put("alphanumeric", c.alphanumeric());
        s.put("otpExpirationSeconds", c.otpExpirationSeconds());
        s.put("sessionExpirationSeconds", c.sessionExpirationSeconds());
        s.put("appName", c.appName());
        s.put("emailTemplateId", c.emailTemplateId().orElse(null));
        s.put("signupEnabled", c.signupEnabled());
        s.put("enabledProviders", c.enabledProviders());
        s.put("oauthClientIds", c.oauthClientIds());
        s.put("oauthRedirectUrl", c.oauthRedirectUrl().orElse(null));
        s.put("captchaEnabled", c.captchaEnabled());
        return s;
    }

    private static AuthProxyConfig parse(AuthProxyConfigRepository.Stored stored) {
        JsonNode s = JSON.readTree(stored.settings());
        List<String> origins = new java.util.ArrayList<>();
        s.path("allowedOrigins").forEach(o -> origins.add(o.asString()));
        return new AuthProxyConfig(
                stored.id(),
                stored.organizationId(),
                origins,
                s.path("emailEnabled").asBoolean(),
                s.path("smsEnabled").asBoolean(),
                s.path("otpLength").asInt(),
                s.path("alphanumeric").asBoolean(),
                s.path("otpExpirationSeconds").asLong(),
                s.path("sessionExpirationSeconds").asLong(),
                s.path("appName").asString(),
                Optional.ofNullable(s.path("emailTemplateId").asString(null)),
                s.path("signupEnabled").asBoolean(),
                strings(s.path("enabledProviders")),
                clientIds(s.path("oauthClientIds")),
                Optional.ofNullable(s.path("oauthRedirectUrl").asString(null)),
                s.path("captchaEnabled").asBoolean());
    }

    /** A list of strings as stored; absent (a configuration stored before the field existed) is empty. */
    private static List<String> strings(JsonNode node) {
        List<String> out = new java.util.ArrayList<>();
        node.forEach(value -> out.add(value.asString()));
        return out;
    }

    private static Map<String, String> clientIds(JsonNode node) {
        Map<String, String> out = new LinkedHashMap<>();
        node.properties().forEach(e -> out.put(e.getKey(), e.getValue().asString()));
        return out;
    }

    /** The wire view of a configuration (the activity's result). */
    public static Map<String, Object> view(AuthProxyConfig c) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("configId", c.id());
        out.put("organizationId", c.organizationId());
        out.putAll(settings(c));
        return out;
    }
}
