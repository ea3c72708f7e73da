package dev.keyhaven.server.tvc;

import dev.keyhaven.crypto.Digests;
import dev.keyhaven.server.activity.ActivityAction;
import dev.keyhaven.server.activity.ActivityContext;
import dev.keyhaven.server.activity.ActivityHandler;
import dev.keyhaven.server.activity.ActivityResource;
import dev.keyhaven.server.activity.ActivitySpec;
import dev.keyhaven.server.activity.ActivityType;
import dev.keyhaven.server.activity.ActivityVersion;
import dev.keyhaven.server.api.ApiException;
import dev.keyhaven.server.api.Params;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code create_tvc_deployment}: a deployment of an app and its manifest. The manifest is built from the intent and the
 * app (namespace, pivot, the app's manifest and share sets with their thresholds, QOS version) as JSON text; its
 * SHA-256 is what operators approve. Result {@code {deploymentId, manifestId}}.
 */
final class CreateTvcDeploymentHandler implements ActivityHandler<CreateTvcDeploymentHandler.Intent> {
    private static final ActivitySpec SPEC = ActivitySpec.of(
            "create_tvc_deployment",
            ActivityResource.TVC_DEPLOYMENT,
            ActivityAction.CREATE,
            new ActivityVersion(
                    ActivityType.CREATE_TVC_DEPLOYMENT, "createTvcDeploymentIntent", "createTvcDeploymentResult"));
    private static final List<String> HEALTH_CHECKS =
            List.of("TVC_HEALTH_CHECK_TYPE_HTTP", "TVC_HEALTH_CHECK_TYPE_GRPC");

    private final TvcRepository repository;
    private final ObjectMapper json;

    public CreateTvcDeploymentHandler(TvcRepository repository, ObjectMapper json) {
        this.repository = repository;
        this.json = json;
    }

    /** The validated intent. */
    public record Intent(
            String appId,
            String qosVersion,
            String imageUrl,
            String path,
            List<String> args,
            String expectedPivotDigest,
            Optional<Long> nonce,
            boolean hasPullSecret,
            boolean debugMode,
            String healthCheckType,
            int healthCheckPort,
            int publicIngressPort) {}

    @Override
    public ActivitySpec spec() {
        return SPEC;
    }

    @Override
    public Intent parse(Params p) {
        String healthCheck = p.requiredString("healthCheckType");
        if (!HEALTH_CHECKS.contains(healthCheck)) {
            throw ApiException.badField(p.pathOf("healthCheckType"), "must be one of " + HEALTH_CHECKS);
        }
        return new Intent(
                p.requiredString("appId"),
                p.requiredString("qosVersion"),
                p.requiredString("pivotContainerImageUrl"),
                p.requiredString("pivotPath"),
                p.requiredStrings("pivotArgs"),
                p.requiredString("expectedPivotDigest"),
                p.optionalUint64("nonce"),
                p.optionalString("pivotContainerEncryptedPullSecret").isPresent(),
                p.optionalBoolean("debugMode", false),
                healthCheck,
                port(p, "healthCheckPort"),
                port(p, "publicIngressPort"));
    }

    private static int port(Params p, String field) {
        int port = p.requiredInt(field);
        if (port < 1 || port > 65_535) {
            throw ApiException.badField(p.pathOf(field), "must be a port between 1 and 65535");
        }
        return port;
    }

    @Override
    public Object execute(ActivityContext context, Intent intent) {
        TvcApp app = repository
                .findApp(context.tx(), context.organizationId(), intent.appId())
                .orElseThrow(() -> ApiException.notFound("no TVC app found with id " + intent.appId()));
        if (intent.debugMode() && !app.enableDebugModeDeployments()) {
            throw ApiException.badRequest("TVC app " + app.id() + " does not allow debug-mode deployments");
        }
        String deploymentId = context.ids().next();
        String manifestId = context.ids().next();
        String manifest = json.writeValueAsString(
                manifest(app, intent, intent.nonce().orElse(context.now().getEpochSecond())));
        String hash = HexFormat.of().formatHex(Digests.sha256(manifest.getBytes(StandardCharsets.UTF_8)));
        repository.insertDeployment(
                context.tx(),
                new TvcDeployment(
                        deploymentId,
                        context.organizationId(),
                        app.id(),
                        manifestId,
                        manifest,
                        hash,
                        intent.qosVersion(),
                        json.writeValueAsString(container(intent)),
                        intent.debugMode(),
                        context.now(),
                        context.now()));
        return new Result(deploymentId, manifestId);
    }

    private ObjectNode manifest(TvcApp app, Intent intent, long nonce) {
        ObjectNode manifest = json.createObjectNode();
        ObjectNode namespace = manifest.putObject("namespace");
        namespace.put("name", app.name());
        namespace.put("nonce", nonce);
        namespace.put("quorumKey", app.quorumPublicKey());
        ObjectNode pivot = manifest.putObject("pivot");
        pivot.put("hash", intent.expectedPivotDigest());
        pivot.put("restart", "Never");
        ArrayNode args = pivot.putArray("args");
        intent.args().forEach(args::add);
        manifest.set("manifestSet", set(app.manifestSet()));
        manifest.set("shareSet", set(app.shareSet()));
        ObjectNode enclave = manifest.putObject("enclave");
        enclave.put("qosVersion", intent.qosVersion());
        enclave.put("debugMode", intent.debugMode());
        manifest.set("pivotContainer", container(intent));
        return manifest;
    }

    private ObjectNode set(OperatorSet set) {
        ObjectNode out = json.createObjectNode();
        out.put("threshold", set.threshold());
        ArrayNode members = out.putArray("members");
        set.operators().forEach(o -> members.addObject().put("alias", o.name()).put("pubKey", o.publicKey()));
        return out;
    }

    /** {@code v1TvcContainerSpec}; the pull secret itself is not kept, only whether there is one. */
    private ObjectNode container(Intent intent) {
        ObjectNode out = json.createObjectNode();
        out.put("containerUrl", intent.imageUrl());
        out.put("path", intent.path());
        ArrayNode args = out.putArray("args");
        intent.args().forEach(args::add);
        out.put("hasPullSecret", intent.hasPullSecret());
        out.put("healthCheckType", intent.healthCheckType());
        out.put("healthCheckPort", intent.healthCheckPort());
        out.put("publicIngressPort", intent.publicIngressPort());
        return out;
    }

    /** {@code createTvcDeploymentResult}. */
    public record Result(String deploymentId, String manifestId) {}
}
