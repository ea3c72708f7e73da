package dev.keyhaven.server.http;

import dev.keyhaven.server.activity.ActivitySpec;
import dev.keyhaven.server.activity.ActivityVersion;
import dev.keyhaven.server.api.ErrorCode;
import dev.keyhaven.server.auth.StampHeaders;
import dev.keyhaven.server.authproxy.AuthProxyRoute;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The OpenAPI 3.1 document of every path Keyhaven serves, generated from {@link ApiDescription} (the route table and
 * the handlers' {@code ActivitySpec}s), never written by hand: served at {@code GET /public/v1/openapi.json} and
 * committed as {@code docs/openapi.json}.
 *
 * <p>It describes what the code declares and no more: the envelope of every request (a submit's {@code type},
 * {@code timestampMs}, {@code organizationId} and {@code parameters}, with the activity types its handler accepts; a
 * query's {@code organizationId}), the authentication headers, the error body. The fields of each operation's
 * {@code parameters} and answers are not declared in code, so they are left open rather than guessed; they are
 * Turnkey's. The auth proxy's paths are served on a listener of their own: they carry a path-level {@code servers}
 * entry for it and the tag {@code auth-proxy}.
 */
final class OpenApiDocument {
    static final String API_KEY_STAMP = "apiKeyStamp";
    static final String WEBAUTHN_STAMP = "webAuthnStamp";
    static final String ATTESTED_STAMP = "attestedStamp";
    static final String READ_ONLY_SESSION = "readOnlySession";
    static final String AUTH_PROXY_CONFIG = "authProxyConfig";

    private final ObjectMapper json;

    private OpenApiDocument(ObjectMapper json) {
        this.json = json;
    }

    /** The document as served and committed: indented JSON ending with a newline. */
    static byte[] render(ObjectMapper json, ApiDescription api) {
        ObjectNode document = new OpenApiDocument(json).build(api);
        String text = json.writer().with(SerializationFeature.INDENT_OUTPUT).writeValueAsString(document);
        return (text + "\n").getBytes(java.nio.charset.StandardCharsets.UTF_8);
    }

    private ObjectNode build(ApiDescription api) {
        ObjectNode document = json.createObjectNode();
        document.put("openapi", "3.1.0");
        ObjectNode info = document.putObject("info");
        info.put("title", "Keyhaven API");
        // The version of the API the paths carry (/public/v1), not the build's: the document changes with the
        // routes, not with each release (GET / tells the build's version).
        info.put("version", "v1");
        info.put(
                "description",
                "Every path Keyhaven serves, generated from its route table and its activity "
                        + "handlers' declarations. Request and answer fields beyond the envelopes are Turnkey's public API's "
                        + "and are not repeated here. Every error is a JSON body of the Error schema.");
        document.putArray("servers").add(apiServer());
        ArrayNode tags = document.putArray("tags");
        tag(tags, "service", "What this server is and where its description lives.");
        tag(tags, "query", "Reads: POST with a stamped JSON body naming the organization.");
        tag(tags, "submit", "Activities: POST with a stamped envelope; the answer is the activity.");
        tag(tags, "discovery", "Public keys clients pin, unauthenticated.");
        tag(tags, "health", "Liveness and readiness, on both listeners.");
        if (!api.consolePaths().isEmpty()) {
            tag(
                    tags,
                    "console",
                    "The operator console's static files (docs/console.md); serve --console=false "
                            + "turns them off.");
        }
        tag(
                tags,
                "auth-proxy",
                "Sign-in without a stamp, on the auth proxy's own listener (serve "
                        + "--auth-proxy-port), named by the X-Auth-Proxy-Config-Id header.");

        ObjectNode paths = document.putObject("paths");
        root(paths);
        openApi(paths);
        for (Operation operation : api.operations()) {
            switch (operation.kind()) {
                case QUERY -> query(paths, operation);
                case SUBMIT -> submit(paths, operation, api.spec(operation));
            }
        }
        api.discoveryPaths().forEach(path -> discovery(paths, path));
        HealthRoutes.PATHS.forEach(path -> health(paths, path));
        metrics(paths);
        api.consolePaths().forEach(path -> console(paths, path));
        api.authProxyRoutes().forEach(route -> authProxy(paths, route));
        components(document.putObject("components"));
        return document;
    }

    private ObjectNode apiServer() {
        ObjectNode server = json.createObjectNode();
        server.put("url", "/");
        server.put("description", "The API listener (serve --bind, --port).");
        return server;
    }

    private ObjectNode authProxyServer() {
        ObjectNode server = json.createObjectNode();
        server.put("url", "{authProxy}");
        server.put("description", "The auth proxy's listener (serve --auth-proxy-port).");
        ObjectNode variable = server.putObject("variables").putObject("authProxy");
        variable.put("default", "http://127.0.0.1:8090");
        variable.put("description", "Scheme, host and port of the auth proxy's listener.");
        return server;
    }

    private void root(ObjectNode paths) {
        ObjectNode get = get(
                paths,
                ApiDescription.ROOT_PATH,
                "service",
                "service_index",
                "What this server is: name, version and where its documentation is.");
        response(get, "200", "The server's name, version and documentation links.", ref("ServiceIndex"));
    }

    private void openApi(ObjectNode paths) {
        ObjectNode get = get(
                paths,
                ApiDescription.OPENAPI_PATH,
                "service",
                "openapi",
                "This document (also committed as docs/openapi.json).");
        ObjectNode schema = json.createObjectNode().put("type", "object");
        response(get, "200", "The OpenAPI 3.1 document.", schema);
    }

    private void query(ObjectNode paths, Operation operation) {
        ObjectNode item = paths.putObject(operation.path());
        ObjectNode post = item.putObject("post");
        post.putArray("tags").add("query");
        post.put("operationId", "query_" + operation.name());
        post.put("summary", operation.name());
        post.put(
                "description",
                (operation.keyhavenOnly() ? "Keyhaven's own query, not part of Turnkey's API. " : "") + "Answered by "
                        + operation.implementation().getSimpleName() + ".");
        if (operation.keyhavenOnly()) {
            post.put("x-keyhaven-only", true);
        }
        security(post, API_KEY_STAMP, WEBAUTHN_STAMP, ATTESTED_STAMP, READ_ONLY_SESSION);
        requestBody(post, ref("QueryRequest"));
        ObjectNode answer = json.createObjectNode().put("type", "object");
        answer.put("description", "The query's answer, in Turnkey's shape for this query.");
        response(post, "200", "The answer.", answer);
        errors(post);
        preflight(item, "query_" + operation.name(), "query");
    }

    private void submit(ObjectNode paths, Operation operation, ActivitySpec spec) {
        ObjectNode item = paths.putObject(operation.path());
        ObjectNode post = item.putObject("post");
        post.putArray("tags").add("submit");
        post.put("operationId", "submit_" + operation.name());
        post.put("summary", operation.name());
        post.put(
                "description",
                "Submits an activity of type "
                        + spec.versions().stream()
                                .map(version -> version.type().wireName())
                                .collect(Collectors.joining(" or "))
                        + " (the first is the current version), run by "
                        + operation.implementation().getSimpleName()
                        + ". Resource " + spec.resource().wireName() + ", action "
                        + spec.action().wireName()
                        + (spec.acceptsAppProofs() ? "." : "; generateAppProofs may not be true.")
                        + (spec.parentInitiated()
                                ? " A user of the parent organization may also submit it with a sub-organization's"
                                        + " organizationId: the parent's policies and root quorum decide, and the"
                                        + " activity is recorded in the sub-organization."
                                : ""));
        ArrayNode versions = post.putArray("x-keyhaven-activity-versions");
        for (ActivityVersion version : spec.versions()) {
            ObjectNode entry = versions.addObject();
            entry.put("type", version.type().wireName());
            entry.put("intentKey", version.intentKey());
            entry.put("resultKey", version.resultKey());
        }
        security(post, API_KEY_STAMP, WEBAUTHN_STAMP, ATTESTED_STAMP);
        ObjectNode body = json.createObjectNode();
        ArrayNode allOf = body.putArray("allOf");
        allOf.add(ref("SubmitEnvelope"));
        ObjectNode type = allOf.addObject().putObject("properties").putObject("type");
        ArrayNode accepted = type.putArray("enum");
        spec.versions().forEach(version -> accepted.add(version.type().wireName()));
        requestBody(post, body);
        response(post, "200", "The activity, completed, failed or awaiting consensus.", ref("ActivityResponse"));
        errors(post);
        preflight(item, "submit_" + operation.name(), "submit");
    }

    private void discovery(ObjectNode paths, String path) {
        String name = path.substring(path.lastIndexOf('/') + 1);
        if (path.equals(ApiServer.JWKS_PATH)) {
            ObjectNode get = get(
                    paths,
                    path,
                    "discovery",
                    "discovery_webhooks_jwks",
                    "The keys that sign webhook deliveries, as a JSON Web Key Set (RFC 7517); cacheable for a day.");
            ObjectNode schema = json.createObjectNode().put("type", "object");
            schema.put("description", "A JSON Web Key Set.");
            response(get, "200", "The key set.", schema);
            response(get, "503", "The database is unreachable; retry after Retry-After.", ref("Error"));
        } else {
            ObjectNode get = get(
                    paths,
                    path,
                    "discovery",
                    "discovery_" + name.replace('-', '_'),
                    "The " + name.replace('-', ' ') + " public key (hex).");
            response(get, "200", "The public key.", ref("PublicKey"));
        }
    }

    private void health(ObjectNode paths, String path) {
        String name = path.equals("/health") ? "health" : "health_" + path.substring(path.lastIndexOf('/') + 1);
        ObjectNode get = get(
                paths,
                path,
                "health",
                name,
                path.endsWith("/live")
                        ? "200 while the process runs."
                        : "200 when this listener accepts requests and the database answers.");
        child(paths, path).putArray("servers").add(apiServer()).add(authProxyServer());
        response(get, "200", "Healthy.", ref("Health"));
        if (!path.endsWith("/live")) {
            response(get, "503", "Stopping, or the database is unreachable.", ref("Health"));
        }
    }

    private void metrics(ObjectNode paths) {
        ObjectNode get = get(
                paths,
                ApiDescription.METRICS_PATH,
                "service",
                "metrics",
                "Prometheus metrics (text exposition format 0.0.4).");
        ObjectNode ok = child(get, "responses").putObject("200");
        ok.put("description", "The metrics.");
        ok.putObject("content").putObject("text/plain").putObject("schema").put("type", "string");
    }

    private void console(ObjectNode paths, String path) {
        String file = path.equals(ConsoleRoutes.PAGE) ? "page" : path.substring(path.lastIndexOf('/') + 1);
        ObjectNode get = get(
                paths,
                path,
                "console",
                "console_" + file.replace('.', '_'),
                path.equals(ConsoleRoutes.PAGE)
                        ? "The operator console's page; it signs every request in the browser (docs/console.md)."
                        : "A file of the operator console.");
        ObjectNode ok = child(get, "responses").putObject("200");
        ok.put("description", "The file, with the console's Content-Security-Policy.");
        String mediaType = ConsoleRoutes.contentType(path);
        ok.putObject("content")
                .putObject(mediaType.substring(0, mediaType.indexOf(';')))
                .putObject("schema")
                .put("type", "string");
    }

    private void authProxy(ObjectNode paths, AuthProxyRoute route) {
        String operation = route.name();
        ObjectNode item = paths.putObject(route.path());
        item.putArray("servers").add(authProxyServer());
        ObjectNode post = item.putObject("post");
        post.putArray("tags").add("auth-proxy");
        post.put("operationId", "authProxy_" + operation);
        post.put("summary", operation);
        post.put(
                "description",
                "Run by the auth proxy for the configuration X-Auth-Proxy-Config-Id names, without a "
                        + "stamp; the request's Origin must be one the configuration allows. Rate-limited: 429 with "
                        + "Retry-After."
                        + (route.captcha()
                                ? " Takes a captcha token (X-Captcha-Token), checked when the deployment verifies "
                                        + "captchas and the configuration enables them."
                                : ""));
        security(post, AUTH_PROXY_CONFIG);
        ObjectNode body = json.createObjectNode().put("type", "object");
        body.put("description", "The operation's fields, as Turnkey's auth proxy takes them.");
        requestBody(post, body);
        ObjectNode answer = json.createObjectNode().put("type", "object");
        answer.put("description", "The operation's answer, in Turnkey's auth proxy's shape.");
        response(post, "200", "The answer.", answer);
        errors(post);
        preflight(item, "authProxy_" + operation, "auth-proxy");
    }

    /** A GET operation, which answers HEAD alike (without the body). */
    private ObjectNode get(ObjectNode paths, String path, String tag, String id, String description) {
        ObjectNode item = paths.putObject(path);
        ObjectNode get = item.putObject("get");
        get.putArray("tags").add(tag);
        get.put("operationId", id);
        get.put("description", description);
        get.putArray("security");
        ObjectNode head = item.putObject("head");
        head.putArray("tags").add(tag);
        head.put("operationId", id + "_head");
        head.put("description", "As GET, without the body.");
        head.putArray("security");
        head.putObject("responses").putObject("200").put("description", "As GET.");
        return get;
    }

    private void preflight(ObjectNode item, String id, String tag) {
        ObjectNode options = item.putObject("options");
        options.putArray("tags").add(tag);
        options.put("operationId", "preflight_" + id);
        options.put("description", "CORS preflight.");
        options.putArray("security");
        options.putObject("responses").set("204", reference("#/components/responses/Preflight"));
    }

    private void security(ObjectNode operation, String... schemes) {
        ArrayNode security = operation.putArray("security");
        // Alternatives: any one of them authenticates the request.
        Arrays.stream(schemes).forEach(scheme -> security.addObject().putArray(scheme));
    }

    private void requestBody(ObjectNode operation, ObjectNode schema) {
        ObjectNode body = operation.putObject("requestBody");
        body.put("required", true);
        body.putObject("content").putObject(ApiEndpoint.JSON).set("schema", schema);
    }

    private void response(ObjectNode operation, String status, String description, ObjectNode schema) {
        ObjectNode response = child(operation, "responses").putObject(status);
        response.put("description", description);
        response.putObject("content").putObject(ApiEndpoint.JSON).set("schema", schema);
    }

    private void errors(ObjectNode operation) {
        ObjectNode responses = child(operation, "responses");
        responses.set("4XX", reference("#/components/responses/Error"));
        responses.set("5XX", reference("#/components/responses/Error"));
    }

    private void components(ObjectNode components) {
        ObjectNode schemas = components.putObject("schemas");
        schemas.set("Error", errorSchema());
        schemas.set("QueryRequest", queryRequest());
        schemas.set("SubmitEnvelope", submitEnvelope());
        ObjectNode activity = object("A submitted activity.", List.of("activity"));
        child(activity, "properties").putObject("activity").put("type", "object");
        schemas.set("ActivityResponse", activity);
        ObjectNode publicKey = object("A public key.", List.of("publicKey"));
        child(publicKey, "properties")
                .putObject("publicKey")
                .put("type", "string")
                .put("description", "The key, hex-encoded.");
        schemas.set("PublicKey", publicKey);
        ObjectNode health = object("A listener's health.", List.of("status"));
        child(health, "properties")
                .putObject("status")
                .put("type", "string")
                .putArray("enum")
                .add("ok")
                .add("stopping")
                .add("unavailable");
        child(health, "properties")
                .putObject("database")
                .put("type", "string")
                .putArray("enum")
                .add("ok")
                .add("unreachable");
        schemas.set("Health", health);
        schemas.set("ServiceIndex", serviceIndex());

        ObjectNode responses = components.putObject("responses");
        ObjectNode error = responses.putObject("Error");
        error.put("description", "The request failed; the body says why.");
        error.putObject("content").putObject(ApiEndpoint.JSON).set("schema", ref("Error"));
        responses.putObject("Preflight").put("description", "The CORS headers allowed; no body.");

        ObjectNode schemes = components.putObject("securitySchemes");
        header(
                schemes,
                API_KEY_STAMP,
                StampHeaders.API_KEY,
                "An API key's stamp over the exact body: base64url " + "JSON of publicKey, scheme and signature.");
        header(schemes, WEBAUTHN_STAMP, StampHeaders.WEBAUTHN, "A passkey's assertion over the exact body.");
        header(schemes, ATTESTED_STAMP, StampHeaders.ATTESTED, "A stamp attested by a sign-in token.");
        header(schemes, READ_ONLY_SESSION, ApiEndpoint.SESSION_HEADER, "A read-only session token: queries only.");
        header(
                schemes,
                AUTH_PROXY_CONFIG,
                AuthProxyServer.CONFIG_HEADER,
                "The auth proxy configuration the "
                        + "request is for (not a secret: the configuration's allowed origins are checked).");
    }

    private ObjectNode errorSchema() {
        ObjectNode error = object(
                "An error, in the shape of Turnkey's (grpc-gateway) errors.", List.of("code", "message", "details"));
        ObjectNode properties = child(error, "properties");
        properties.putObject("code").put("type", "integer").put("description", "The gRPC status code.");
        properties.putObject("message").put("type", "string");
        ObjectNode detail = properties.putObject("details").put("type", "array").putObject("items");
        detail.put("type", "object");
        detail.put(
                "description",
                "A TurnkeyErrorDetail, then a google.rpc.BadRequest naming the field at fault " + "when one is.");
        detail.putArray("required").add("@type");
        detail.putObject("properties").putObject("@type").put("type", "string");
        ArrayNode codes =
                properties.putObject("turnkeyErrorCode").put("type", "string").putArray("enum");
        Arrays.stream(ErrorCode.values())
                .map(ErrorCode::turnkeyErrorCode)
                .distinct()
                .sorted()
                .forEach(codes::add);
        return error;
    }

    private ObjectNode queryRequest() {
        ObjectNode query =
                object("A query's body: the organization, and the query's own fields.", List.of("organizationId"));
        child(query, "properties").putObject("organizationId").put("type", "string");
        return query;
    }

    private ObjectNode submitEnvelope() {
        ObjectNode envelope = object(
                "The envelope of every submitted activity.",
                List.of("type", "timestampMs", "organizationId", "parameters"));
        ObjectNode properties = child(envelope, "properties");
        properties.putObject("type").put("type", "string").put("description", "The activity type and version.");
        ObjectNode timestamp = properties.putObject("timestampMs");
        timestamp.putArray("type").add("string").add("integer");
        timestamp.put(
                "description",
                "When the request was made, in milliseconds since the Unix epoch (a decimal "
                        + "string, as the SDKs send it); refused if older than an hour or more than five minutes ahead.");
        properties.putObject("organizationId").put("type", "string");
        properties
                .putObject("parameters")
                .put("type", "object")
                .put("description", "The activity's parameters: the intent of its type.");
        properties.putObject("generateAppProofs").put("type", "boolean");
        return envelope;
    }

    private ObjectNode serviceIndex() {
        ObjectNode index = object("What this server is.", List.of("name", "version", "links"));
        ObjectNode properties = child(index, "properties");
        properties.putObject("name").put("type", "string");
        properties.putObject("version").put("type", "string");
        properties.putObject("documentation").put("type", "string");
        properties
                .putObject("links")
                .put("type", "object")
                .putObject("additionalProperties")
                .put("type", "string");
        return index;
    }

    private ObjectNode object(String description, List<String> required) {
        ObjectNode schema = json.createObjectNode();
        schema.put("type", "object");
        schema.put("description", description);
        ArrayNode names = schema.putArray("required");
        required.forEach(names::add);
        schema.putObject("properties");
        return schema;
    }

    private void tag(ArrayNode tags, String name, String description) {
        tags.addObject().put("name", name).put("description", description);
    }

    private void header(ObjectNode schemes, String name, String header, String description) {
        ObjectNode scheme = schemes.putObject(name);
        scheme.put("type", "apiKey");
        scheme.put("in", "header");
        scheme.put("name", header);
        scheme.put("description", description);
    }

    private ObjectNode ref(String schema) {
        return reference("#/components/schemas/" + schema);
    }

    private ObjectNode reference(String target) {
        return json.createObjectNode().put("$ref", target);
    }

    /** The object member {@code name} of {@code node}, created when absent. */
    private static ObjectNode child(ObjectNode node, String name) {
        return node.has(name) ? (ObjectNode) node.get(name) : node.putObject(name);
    }
}
